import { Button, Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ReceiverInput, type FieldErrors, type Receiver } from '@tay/contract';
import { ApiError } from '../../../lib/api-client';
import { useSaveReceiver } from '../api/receivers-api';

type Values = { firstName: string; lastName: string; email: string; mobile: string; reference: string };
const EMPTY: Values = { firstName: '', lastName: '', email: '', mobile: '', reference: '' };

const valuesOf = (r: Receiver | null): Values =>
  r ? { firstName: r.firstName, lastName: r.lastName, email: r.email, mobile: r.mobile ?? '', reference: r.reference ?? '' } : EMPTY;

/** The contract's check, every problem named by its field (the API answers the same). */
export function checkReceiver(values: Values): { ok: true; body: ReceiverInput } | { ok: false; errors: FieldErrors } {
  const body = { ...values, mobile: values.mobile || null, reference: values.reference || null };
  const parsed = ReceiverInput.safeParse(body);
  if (parsed.success) return { ok: true, body };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? 'form');
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}

/**
 * Add or edit a receiver in a modal. Adding e-mails them the secure link to enter their own bank
 * account; the business never types it.
 */
function ReceiverForm({ receiver, onClose }: { receiver: Receiver | null; onClose: () => void }) {
  const [values, setValues] = useState<Values>(valuesOf(receiver));
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useSaveReceiver();

  const field = (key: keyof Values) => ({
    value: values[key],
    error: errors[key],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setValues((v) => ({ ...v, [key]: value }));
      setErrors(({ [key]: _cleared, ...rest }) => rest);
    },
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const checked = checkReceiver(values);
    if (!checked.ok) return setErrors(checked.errors);
    save.mutate(
      { body: checked.body, receiverId: receiver?.receiverId ?? null },
      {
        onSuccess: (saved) => {
          const emailChanged = receiver && receiver.email !== saved.email && saved.verification === 'unverified';
          notifications.show({
            color: 'teal',
            title: receiver ? 'Receiver saved' : 'Receiver added',
            message:
              !receiver || emailChanged
                ? `We e-mailed ${saved.email} a secure link to add their bank account.`
                : `${saved.firstName} ${saved.lastName} is up to date.`,
          });
          onClose();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fields) setErrors(error.fields);
          else notifications.show({ color: 'red', title: 'The receiver was not saved', message: error.message });
        },
      },
    );
  };

  return (
    <>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {!receiver && (
            <Text size="sm" c="dimmed">
              We e-mail the receiver a secure link where they enter their own bank account. You see the bank’s name and the last 4 digits only.
            </Text>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="First name" required autoComplete="off" maxLength={100} {...field('firstName')} />
            <TextInput label="Last name" required autoComplete="off" maxLength={100} {...field('lastName')} />
          </SimpleGrid>
          <TextInput label="E-mail" type="email" required maxLength={254} {...field('email')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Mobile" placeholder="+14155550123" {...field('mobile')} />
            <TextInput label="Reference" description="Your own id for them, e.g. an employee number" maxLength={64} {...field('reference')} />
          </SimpleGrid>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {receiver ? 'Save' : 'Add and send link'}
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}

/** The form mounts afresh each time the modal opens, so it starts from the receiver (or empty). */
export function ReceiverFormModal({ opened, receiver, onClose }: { opened: boolean; receiver: Receiver | null; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title={receiver ? `Edit ${receiver.firstName} ${receiver.lastName}` : 'Add a receiver'} size="lg">
      {opened && <ReceiverForm key={receiver?.receiverId ?? 'new'} receiver={receiver} onClose={onClose} />}
    </Modal>
  );
}
