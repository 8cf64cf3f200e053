import { Badge, CloseButton } from '@mantine/core';

/**
 * The days a billing report's figure stands for (ADR 039): a request's first send, a payment
 * processed, a payment returned. The history has no inputs for them; a report's link sets them,
 * and each shows as a chip so a person who followed the link sees why the list is narrowed.
 */
const DAY_FILTERS = [
  { from: 'sentFrom', to: 'sentTo', label: 'Sent', anyDay: 'Show requests sent on any day' },
  { from: 'paidFrom', to: 'paidTo', label: 'Paid', anyDay: 'Show requests paid on any day' },
  { from: 'returnedFrom', to: 'returnedTo', label: 'Returned', anyDay: 'Show requests with a payment returned on any day' },
] as const;

/** "Sent 2026-11-03 – 2026-11-03", "Paid from 2026-11-01", "Returned through 2026-11-30". */
export function dayRangeLabel(label: string, from: string | null, to: string | null): string {
  if (from && to) return `${label} ${from} – ${to}`;
  return from ? `${label} from ${from}` : `${label} through ${to ?? ''}`;
}

/** One removable chip per day filter in the URL; removing one drops both of its days. */
export function DayFilterChips({ params, onRemove }: { params: URLSearchParams; onRemove: (changes: Record<string, undefined>) => void }) {
  return (
    <>
      {DAY_FILTERS.map((filter) => {
        const from = params.get(filter.from);
        const to = params.get(filter.to);
        if (!from && !to) return null;
        return (
          <Badge
            key={filter.from}
            variant="light"
            size="lg"
            radius="sm"
            tt="none"
            rightSection={<CloseButton size="xs" aria-label={filter.anyDay} onClick={() => onRemove({ [filter.from]: undefined, [filter.to]: undefined })} />}
          >
            {dayRangeLabel(filter.label, from, to)}
          </Badge>
        );
      })}
    </>
  );
}
