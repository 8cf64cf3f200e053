import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { addDays, formatDay, type Enrollment } from '@tay/contract';
import { ApiError } from '../../../lib/api-client';
import { useWithdraw } from '../api/programs-api';
import { localToday } from '../../../lib/local-day';

function WithdrawForm({ enrollment, onClose }: { enrollment: Enrollment; onClose: () => void }) {
  const today = localToday();
  const earliest = addDays(enrollment.startDate, -1);
  const [endDate, setEndDate] = useState(today < earliest ? earliest : today);
  const [error, setError] = useState<string | undefined>();
  const withdraw = useWithdraw();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(endDate)) return setError('Enter the end date.');
    if (endDate < earliest) return setError(`The end date must be on or after ${formatDay(earliest)}, the day before the enrollment started.`);
    withdraw.mutate(
      { programId: enrollment.programId, enrollmentId: enrollment.enrollmentId, endDate },
      {
        onSuccess: () => {
          notifications.show({
            color: 'teal',
            title: 'Student withdrawn',
            message: `${enrollment.studentName} is withdrawn from ${enrollment.programName}; billed up to ${formatDay(endDate)}.`,
          });
          onClose();
        },
        onError: (e) => {
          if (e instanceof ApiError && e.fields?.endDate) setError(e.fields.endDate);
          else notifications.show({ color: 'red', title: `${enrollment.studentName} was not withdrawn`, message: e.message });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">
          {enrollment.studentName} leaves {enrollment.programName}. The end date is the last day billed for; the place is free at once. Requests already sent do
          not change.
        </Text>
        <TextInput
          label="End date"
          type="date"
          required
          min={earliest}
          value={endDate}
          error={error}
          onChange={(e) => {
            setEndDate(e.currentTarget.value);
            setError(undefined);
          }}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Keep enrolled
          </Button>
          <Button type="submit" color="red" loading={withdraw.isPending}>
            Withdraw
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Asks before withdrawing a student, with the end date (from the day before the start). */
export function WithdrawModal({ enrollment, onClose }: { enrollment: Enrollment | null; onClose: () => void }) {
  return (
    <Modal opened={enrollment !== null} onClose={onClose} title={enrollment ? `Withdraw ${enrollment.studentName}?` : ''}>
      {enrollment && <WithdrawForm key={enrollment.enrollmentId} enrollment={enrollment} onClose={onClose} />}
    </Modal>
  );
}
