import { Button } from '@mantine/core';
import { IconFilterOff } from '@tabler/icons-react';
import { notifications } from '@mantine/notifications';

/** At the end of a list's filters, once any is set: back to the whole list. */
export function ClearFiltersButton({ onClick }: { onClick: () => void }) {
  return (
    <Button variant="subtle" leftSection={<IconFilterOff size={16} />} onClick={onClick} className="data-table-filters-end">
      Clear filters
    </Button>
  );
}

/** The empty state of a list whose search and filters match nothing: what matched nothing, and the way back. */
export function noMatches(title: string, description: string, onClear: () => void) {
  return {
    title,
    description,
    action: (
      <Button mt="xs" variant="default" onClick={onClear}>
        Clear filters
      </Button>
    ),
  };
}

/** A list's CSV download started from its Download button: a failure is a toast saying why. */
export function exportCsv(download: Promise<unknown>): void {
  void download.catch((error: Error) => notifications.show({ color: 'red', title: 'Export failed', message: error.message }));
}
