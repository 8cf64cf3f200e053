import { Badge, Table, Text } from '@mantine/core';
import { MAIL_DELIVERY_ATTEMPTS, type EmailDelivery, type RequestEmail } from '@tay/contract';
import { useBusinessTime } from '../../lib/business-time';
import { formatPhone } from '../../lib/phone';

const DELIVERY: Record<EmailDelivery, { label: string; color: string }> = {
  outbox: { label: 'In the outbox', color: 'gray' },
  sending: { label: 'Sending', color: 'blue' },
  delivered: { label: 'Delivered', color: 'teal' },
  retrying: { label: 'Retrying', color: 'orange' },
  failed: { label: 'Not delivered', color: 'red' },
};

/** What happened to an e-mail, in a sentence, when there is more to say than its badge. */
function explanation(e: RequestEmail, what: string): string | null {
  switch (e.delivery) {
    case 'outbox':
      return 'No mail server is configured: kept in the development outbox.';
    case 'retrying':
      return `Attempt ${e.attempts} of ${MAIL_DELIVERY_ATTEMPTS} failed${e.lastError ? `: ${e.lastError}` : ''}. Tay tries again.`;
    case 'failed':
      return `Every attempt failed${e.lastError ? `: ${e.lastError}` : ''}. Check the payer's ${e.channel === 'sms' ? 'mobile number' : 'address'}, then resend the ${what}.`;
    default:
      return null;
  }
}

/**
 * The messages sent about a request or an invoice (its link, reminders, receipts: e-mails, and
 * text messages when it goes by SMS) and how each one's delivery went. Shared by the request
 * details and the invoice details.
 */
export function RequestEmails({ emails, what = 'request' }: { emails: RequestEmail[]; /** What "resend the …" names. */ what?: 'request' | 'invoice' }) {
  const clock = useBusinessTime();
  if (emails.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No message sent yet.
      </Text>
    );
  }
  return (
    <Table striped aria-label="Messages">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Date</Table.Th>
          <Table.Th>Message</Table.Th>
          <Table.Th>Delivery</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {emails.map((e) => {
          const delivery = DELIVERY[e.delivery];
          const why = explanation(e, what);
          return (
            <Table.Tr key={e.messageId}>
              <Table.Td>{clock.dateTime(e.createdAt)}</Table.Td>
              <Table.Td>
                {e.channel === 'sms' ? (
                  <Text size="sm">Text message to {formatPhone(e.to)}</Text>
                ) : (
                  <>
                    <Text size="sm">{e.subject}</Text>
                    <Text size="xs" c="dimmed">
                      To {e.to}
                    </Text>
                  </>
                )}
              </Table.Td>
              <Table.Td>
                <Badge color={delivery.color} variant="light">
                  {delivery.label}
                </Badge>
                {why && (
                  <Text size="xs" c={e.delivery === 'failed' || e.delivery === 'retrying' ? 'red' : 'dimmed'} mt={4}>
                    {why}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
