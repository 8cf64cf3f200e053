import { Alert, Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useState } from 'react';
import { DeclineBody } from '@tay/contract';

export interface DeclineDialogProps {
  opened: boolean;
  businessName: string;
  onClose: () => void;
  /** Sends the decline; rejects with the API's message, which the dialog then shows. */
  onDecline: (reason: string) => Promise<unknown>;
}

/**
 * The payer declines with a reason. The reason is checked with the API's own rule (`DeclineBody`):
 * the business is owed an answer, so an empty one is refused here before it is refused there.
 */
export function DeclineDialog({ opened, businessName, onClose, onDecline }: DeclineDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const close = () => {
    if (sending) return;
    setError(null);
    setFailure(null);
    onClose();
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = DeclineBody.safeParse({ reason });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Tell the business why you decline.');
      return;
    }
    setError(null);
    setFailure(null);
    setSending(true);
    try {
      await onDecline(parsed.data.reason);
    } catch (e) {
      setFailure(e instanceof Error ? e.message : 'The request could not be declined. Try again.');
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Decline this request?" centered>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="md">
          {failure && (
            <Alert color="red" title="The request was not declined" role="alert">
              {failure}
            </Alert>
          )}
          <Textarea
            label="Tell the business why"
            description={`${businessName} will see your reason.`}
            required
            rows={3}
            maxLength={500}
            data-autofocus
            value={reason}
            onChange={(e) => {
              setReason(e.currentTarget.value);
              if (error) setError(null);
            }}
            error={error}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={sending}>
              Go back
            </Button>
            <Button type="submit" color="red" loading={sending}>
              Decline request
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
