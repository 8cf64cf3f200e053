import { Alert, Center, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { formatDateTime } from '@tay/contract';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useVerifyPayer } from '../api/payers-api';

/** /pay/verify/:token (public): the payer confirms their e-mail address by opening the link. */
export function VerifyPayerPage() {
  useDocumentTitle('Confirm your e-mail address');
  const { token = '' } = useParams();
  const verification = useVerifyPayer(token);

  return (
    <Center py="xl">
      <Paper withBorder radius="md" p="xl" maw={520} w="100%">
        {verification.isPending ? (
          <Stack align="center" gap="sm" role="status">
            <Loader role="status" aria-label="Confirming" />
            <Text>Confirming your e-mail address…</Text>
          </Stack>
        ) : verification.error ? (
          <Stack gap="sm">
            <Title order={1} fz="h2">
              We could not confirm your e-mail address
            </Title>
            <Alert color="red" icon={<IconAlertTriangle />} role="alert">
              {verification.error.message}
            </Alert>
          </Stack>
        ) : (
          <Stack align="center" gap="sm" ta="center">
            <ThemeIcon size={56} radius="xl" color="teal" variant="light">
              <IconCircleCheck size={32} />
            </ThemeIcon>
            <Title order={1} fz="h2">
              Your e-mail address is confirmed
            </Title>
            <Text>
              Thank you, {verification.data.payerName}. {verification.data.businessName} can now send you requests to pay at this address.
            </Text>
            <Text size="sm" c="dimmed">
              {verification.data.alreadyVerified
                ? `You had already confirmed it on ${formatDateTime(verification.data.verifiedAt)}; nothing else is needed.`
                : 'You can close this page.'}
            </Text>
          </Stack>
        )}
      </Paper>
    </Center>
  );
}
