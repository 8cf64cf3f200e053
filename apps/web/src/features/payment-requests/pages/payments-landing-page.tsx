import { Button, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { IconFileInvoice, IconHistory, IconSend, IconUsers } from '@tabler/icons-react';
import { Link, useOutletContext } from 'react-router';
import { type EntityType, formatMoney, getHref, paths, paymentRequestEndpoints } from '@tay/contract';
import { Figure } from '../../../components/ui/figure';
import { LoadError } from '../../../components/ui/load-error';
import { paymentsHeading } from '../../../lib/template';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useBalances } from '../../../lib/balances';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { AccessAlert } from '../../../components/ui/access-alert';
import { useRequestSummary } from '../api/payment-requests-api';

/** Where the landing's request button and its people shortcut lead for each template (its own single request and people). */
const TEMPLATE_LINKS: Record<EntityType, { request: string; people: string; peopleLabel: string }> = {
  standard: { request: paths.payments.request, people: paths.payers.list, peopleLabel: 'Payers' },
  student: { request: getHref(paths.entity.studentRequest, undefined, { entity: true }), people: paths.entity.students, peopleLabel: 'Students' },
  healthCare: {
    request: getHref(paths.entity.healthcareRequest, undefined, { entity: true }),
    people: paths.entity.healthcareClients,
    peopleLabel: 'Patients',
  },
};

/** /business/payment: the section landing with the template's heading and summary figures. */
export function PaymentsLandingPage() {
  const outlet = useOutletContext<{ template?: EntityType } | undefined>();
  const template = outlet?.template ?? 'standard';
  const heading = paymentsHeading(template);
  const links = TEMPLATE_LINKS[template];
  useDocumentTitle(heading);
  const summary = useRequestSummary();
  const balances = useBalances();
  const access = useEndpointAccess(paymentRequestEndpoints.create);
  const s = summary.data;
  const b = balances.data;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>{heading}</Title>
        {access.allowed ? (
          <Button component={Link} to={links.request} leftSection={<IconSend size={16} />}>
            Request a payment
          </Button>
        ) : (
          <Button leftSection={<IconSend size={16} />} disabled>
            Request a payment
          </Button>
        )}
      </Group>
      <AccessAlert access={access} />
      {balances.error && <LoadError title="Your balances could not be loaded" error={balances.error} onRetry={() => void balances.refetch()} />}
      {summary.error && <LoadError title="The figures could not be loaded" error={summary.error} onRetry={() => void summary.refetch()} />}
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        <Figure label="Available balance" value={b ? formatMoney(b.availableCents) : '—'} hint="Settled and ready to be paid out" />
        <Figure label="Pending balance" value={b ? formatMoney(b.pendingCents) : '—'} hint="Paid, waiting to settle" />
        <Figure label="Outstanding" value={s ? formatMoney(s.openCents) : '—'} hint={s ? `${s.openCount} open request(s)` : undefined} />
        <Figure label="Collected" value={s ? formatMoney(s.paidCents) : '—'} hint={s ? `${s.paidCount} paid in full` : undefined} />
        <Figure
          label="Drafts and scheduled"
          value={s ? String(s.draftCount + s.scheduledCount) : '—'}
          hint={s ? `${s.draftCount} draft(s), ${s.scheduledCount} scheduled` : undefined}
        />
        <Figure label="Needs attention" value={s ? String(s.needsAttentionCount) : '—'} hint="Failed, declined or expired" />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Button component={Link} to={paths.payments.history} variant="light" leftSection={<IconHistory size={16} />}>
          Transaction history
        </Button>
        <Button component={Link} to={paths.payments.drafts} variant="light" leftSection={<IconFileInvoice size={16} />}>
          Drafts
        </Button>
        <Button component={Link} to={links.people} variant="light" leftSection={<IconUsers size={16} />}>
          {links.peopleLabel}
        </Button>
      </SimpleGrid>
    </Stack>
  );
}
