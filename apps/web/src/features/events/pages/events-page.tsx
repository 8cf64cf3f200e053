import { Badge, Button, Menu, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import {
  EVENT_STATUS_LABELS,
  EventAction,
  EventStatus,
  formatDay,
  formatMoney,
  getHref,
  paths,
  type EventListQuery,
  type PayoutEvent,
  type QrImageFormat,
  eventEndpoints,
} from '@tay/contract';
import { type Column, type RowAction } from '../../../components/ui/data-table';
import { NameCell } from '../../../components/ui/name-cell';
import { EntityListPage } from '../../../components/ui/entity-list-page';
import { baseListQuery, oneOf, useListParams } from '../../../lib/list-params';
import { useBusinessId } from '../../../lib/session';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { downloadEventImage, downloadEventsCsv, useEventCommand, useEventList, type EventCommand } from '../api/events-api';
import { EventFormModal } from '../components/event-form-modal';

const SORTS = ['createdAt', 'name', 'eventDate', 'checkIns'] as const;
const STATUS_OPTIONS = EventStatus.options.map((s) => ({ value: s, label: EVENT_STATUS_LABELS[s] }));
const READ_ONLY: ReadonlySet<EventAction> = new Set(['Event Check-Ins']);

export const eventCheckInsHref = (eventId: string) => getHref(paths.payouts.eventCheckIns, undefined, { eventId });

const DONE: Record<EventCommand, { title: string; verb: string; text: (name: string) => string }> = {
  enable: { title: 'Event enabled', verb: 'enabled', text: (name) => `“${name}” takes check-ins again.` },
  disable: { title: 'Event disabled', verb: 'disabled', text: (name) => `“${name}” takes no check-ins; people who scan its code are told so.` },
  delete: { title: 'Event deleted', verb: 'deleted', text: (name) => `“${name}” is gone.` },
};

/**
 * /business/payouts/qrcode — Manage Events: events whose QR code receivers scan to check in; create
 * and edit in a modal, download the code (PNG, SVG, PDF poster), Enable/Disable, Delete, and each
 * event's check-ins.
 */
export function EventsPage() {
  const navigate = useNavigate();
  const businessId = useBusinessId();
  const access = useEndpointAccess(eventEndpoints.create);
  const canWrite = access.allowed;
  const params = useListParams();
  const [editing, setEditing] = useState<{ event: PayoutEvent | null } | null>(null);
  const command = useEventCommand();

  const query: EventListQuery = {
    ...baseListQuery(params, SORTS, 'createdAt'),
    ...oneOf(params, 'status', EventStatus.options),
  };
  const list = useEventList(query);

  const change = (ev: PayoutEvent, name: EventCommand) =>
    command.mutate(
      { eventId: ev.eventId, command: name },
      {
        onSuccess: () => notifications.show({ color: 'teal', title: DONE[name].title, message: DONE[name].text(ev.name) }),
        onError: (error) => notifications.show({ color: 'red', title: `“${ev.name}” was not ${DONE[name].verb}`, message: error.message }),
      },
    );
  const confirm = (ev: PayoutEvent, name: 'disable' | 'delete') =>
    modals.openConfirmModal({
      title: name === 'delete' ? `Delete “${ev.name}”?` : `Disable “${ev.name}”?`,
      children: (
        <Text size="sm">
          {name === 'delete'
            ? 'The event is removed for good. Printed codes stop working.'
            : 'People who scan its code are told check-ins are closed, until you enable it again.'}
        </Text>
      ),
      labels: { confirm: name === 'delete' ? 'Yes, delete' : 'Yes, disable', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () => change(ev, name),
    });
  const run = (action: EventAction, ev: PayoutEvent) => {
    switch (action) {
      case 'Edit':
        return setEditing({ event: ev });
      case 'Enable':
        return change(ev, 'enable');
      case 'Disable':
        return confirm(ev, 'disable');
      case 'Delete':
        return confirm(ev, 'delete');
      case 'Event Check-Ins':
        return void navigate(eventCheckInsHref(ev.eventId));
    }
  };
  const download = (ev: PayoutEvent, format: QrImageFormat) =>
    businessId &&
    void downloadEventImage(businessId, ev, format).catch((error: Error) =>
      notifications.show({ color: 'red', title: 'Download failed', message: error.message }),
    );

  const actions = (ev: PayoutEvent): RowAction<PayoutEvent>[] => [
    ...ev.actions
      .filter((a): a is EventAction => (EventAction.options as readonly string[]).includes(a))
      .filter((a) => canWrite || READ_ONLY.has(a))
      .map((action) => ({ label: action, onClick: (row: PayoutEvent) => run(action, row), ...(action === 'Delete' ? { color: 'red' } : {}) })),
    { label: 'Download PNG', onClick: (row) => download(row, 'png') },
    { label: 'Download SVG', onClick: (row) => download(row, 'svg') },
    { label: 'Download PDF poster', onClick: (row) => download(row, 'pdf') },
  ];

  const columns: Column<PayoutEvent>[] = [
    {
      key: 'name',
      header: 'Event',
      sortKey: 'name',
      render: (ev) => <NameCell name={ev.name} detail={ev.place} />,
    },
    { key: 'date', header: 'Date', sortKey: 'eventDate', render: (ev) => formatDay(ev.eventDate) },
    { key: 'amount', header: 'Per check-in', align: 'right', render: (ev) => formatMoney(ev.amountCents) },
    {
      key: 'checkIns',
      header: 'Check-ins',
      sortKey: 'checkIns',
      align: 'right',
      render: (ev) =>
        ev.maxCheckIns === null
          ? ev.checkInsCount.toLocaleString('en-US')
          : `${ev.checkInsCount.toLocaleString('en-US')} of ${ev.maxCheckIns.toLocaleString('en-US')}`,
    },
    {
      key: 'status',
      header: 'Status',
      render: (ev) => (
        <Badge color={ev.status === 'active' ? 'teal' : 'gray'} variant="light">
          {EVENT_STATUS_LABELS[ev.status]}
        </Badge>
      ),
    },
    {
      key: 'code',
      header: 'QR code',
      render: (ev) => (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button size="compact-sm" variant="default" leftSection={<IconDownload size={14} />} aria-label={`Download the QR code of ${ev.name}`}>
              Download
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => download(ev, 'png')}>PNG image</Menu.Item>
            <Menu.Item onClick={() => download(ev, 'svg')}>SVG image</Menu.Item>
            <Menu.Item onClick={() => download(ev, 'pdf')}>PDF poster</Menu.Item>
          </Menu.Dropdown>
        </Menu>
      ),
    },
  ];

  const newEvent = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ event: null })} disabled={!access.allowed}>
      New event
    </Button>
  );

  return (
    <EntityListPage
      title="Manage Events"
      documentTitle="Events"
      description="Print an event’s QR code: people scan it to check in with their e-mail, and you pay who checked in."
      actions={newEvent}
      access={access}
      params={params}
      query={query}
      list={list}
      filters={[{ name: 'status', label: 'Status', placeholder: 'Any status', data: STATUS_OPTIONS, width: 160 }]}
      caption="Events"
      columns={columns}
      rowKey={(ev) => ev.eventId}
      searchPlaceholder="Event name"
      rowActions={actions}
      download={(id) => downloadEventsCsv(id, query)}
      noMatches={{ title: 'No events match', description: 'Nothing matches the search and status you chose. Clear them to see every event.' }}
      empty={{
        title: 'No events yet',
        description: 'Create an event, print its QR code, and the people you pay check in by scanning it.',
        action: canWrite ? newEvent : undefined,
      }}
    >
      <EventFormModal opened={editing !== null} event={editing?.event ?? null} onClose={() => setEditing(null)} />
    </EntityListPage>
  );
}
