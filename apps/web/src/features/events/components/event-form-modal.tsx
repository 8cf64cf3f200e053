import { Button, Group, Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { EventInput, formatMoney, parseMoney, type FieldErrors, type PayoutEvent } from '@tay/contract';
import { MoneyInput } from '../../../components/ui/money-input';
import { ApiError } from '../../../lib/api-client';
import { useBusinessTimeZone } from '../../../lib/business-time-zone';
import { isoToZonedInput, zonedInputToIso } from '../../../lib/send-at';
import { useSaveEvent } from '../api/events-api';
import { textFieldsOf } from '../../../lib/form-fields';

type Values = { name: string; eventDate: string; place: string; amount: string; maxCheckIns: string; closeAt: string };

const valuesOf = (ev: PayoutEvent | null, timeZone: string): Values =>
  ev
    ? {
        name: ev.name,
        eventDate: ev.eventDate,
        place: ev.place,
        amount: formatMoney(ev.amountCents).replace('$', '').replace(/,/g, ''),
        maxCheckIns: ev.maxCheckIns === null ? '' : String(ev.maxCheckIns),
        closeAt: isoToZonedInput(ev.checkInsCloseAt, timeZone),
      }
    : { name: '', eventDate: '', place: '', amount: '', maxCheckIns: '', closeAt: '' };

/** The form's values as the contract's body, every problem named by its field (the API answers the same). */
export function checkEvent(
  values: Values,
  status: PayoutEvent['status'] = 'active',
  timeZone = 'UTC',
): { ok: true; body: EventInput } | { ok: false; errors: FieldErrors } {
  const cents = parseMoney(values.amount);
  const cap = values.maxCheckIns.trim();
  const closeAt = values.closeAt ? zonedInputToIso(values.closeAt, timeZone) : null;
  const body = {
    name: values.name,
    eventDate: values.eventDate,
    place: values.place,
    amountCents: cents ?? Number.NaN,
    status,
    maxCheckIns: cap === '' ? null : /^\d+$/.test(cap) ? Number(cap) : Number.NaN,
    checkInsCloseAt: closeAt,
  };
  const parsed = EventInput.safeParse(body);
  const errors: FieldErrors = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0]);
      errors[key === 'amountCents' ? 'amount' : key] ??= issue.message;
    }
  }
  if (cents === null) errors.amount = 'Enter the amount per check-in, such as 25.00.';
  if (values.closeAt && !closeAt) errors.checkInsCloseAt = 'Enter a date and time that exists on the business’s clock.';
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, body };
}

/** Create or edit an event in a modal; its printed check-in code never changes. */
function EventForm({ event, onClose }: { event: PayoutEvent | null; onClose: () => void }) {
  const timeZone = useBusinessTimeZone().data ?? 'UTC';
  const [values, setValues] = useState<Values>(() => valuesOf(event, timeZone));
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useSaveEvent();

  const set = (key: keyof Values, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors(({ [key]: _cleared, [key === 'closeAt' ? 'checkInsCloseAt' : key]: _alsoCleared, ...rest }) => rest);
  };
  const field = textFieldsOf(values, errors, set);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const checked = checkEvent(values, event?.status, timeZone);
    if (!checked.ok) return setErrors(checked.errors);
    save.mutate(
      { body: checked.body, eventId: event?.eventId ?? null },
      {
        onSuccess: (saved) => {
          notifications.show({
            color: 'teal',
            title: event ? 'Event saved' : 'Event created',
            message: `“${saved.name}” is ready: download its QR code to print.`,
          });
          onClose();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fields) {
            const { amountCents, ...rest } = error.fields;
            setErrors({ ...rest, ...(amountCents ? { amount: amountCents } : {}) });
          } else notifications.show({ color: 'red', title: 'The event was not saved', message: error.message });
        },
      },
    );
  };

  return (
    <>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="Event name" required maxLength={100} value={values.name} error={errors.name} onChange={(e) => set('name', e.currentTarget.value)} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Date" type="date" required {...field('eventDate')} />
            <MoneyInput label="Amount per check-in" required value={values.amount} error={errors.amount} onValueChange={(v) => set('amount', v)} />
          </SimpleGrid>
          <TextInput label="Place" maxLength={200} value={values.place} error={errors.place} onChange={(e) => set('place', e.currentTarget.value)} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Most check-ins"
              description="Empty: no cap. Once reached, the page says the event is full."
              inputMode="numeric"
              {...field('maxCheckIns')}
            />
            <TextInput
              label={`Check-ins close (${timeZone})`}
              description="Empty: open while the event is enabled."
              type="datetime-local"
              value={values.closeAt}
              error={errors.checkInsCloseAt}
              onChange={(e) => set('closeAt', e.currentTarget.value)}
            />
          </SimpleGrid>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {event ? 'Save' : 'Create event'}
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}

/** The form mounts afresh each time the modal opens, so it starts from the event (or empty). */
export function EventFormModal({ opened, event, onClose }: { opened: boolean; event: PayoutEvent | null; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title={event ? `Edit “${event.name}”` : 'New event'} size="lg">
      {opened && <EventForm key={event?.eventId ?? 'new'} event={event} onClose={onClose} />}
    </Modal>
  );
}
