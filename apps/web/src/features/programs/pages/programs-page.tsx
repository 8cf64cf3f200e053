import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import {
  formatDay,
  formatMoney,
  PROGRAM_FREQUENCY_LABELS,
  PROGRAM_STATUS_LABELS,
  ProgramFrequency,
  ProgramStatus,
  type Program,
  type ProgramListQuery,
  programEndpoints,
} from '@tay/contract';
import { type Column, rowActionsOf } from '../../../components/ui/data-table';
import { NameCell } from '../../../components/ui/name-cell';
import { EntityListPage } from '../../../components/ui/entity-list-page';
import { baseListQuery, oneOf, useListParams } from '../../../lib/list-params';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { downloadProgramsCsv, useProgramList } from '../api/programs-api';
import { enrolledOfCapacity, permittedProgramActions, programManageHref, ProgramStatusBadge, useProgramActions } from '../components/program-actions';

const SORTS = ['createdAt', 'name', 'fee', 'startDate'] as const;
const STATUS_OPTIONS = ProgramStatus.options.map((s) => ({ value: s, label: PROGRAM_STATUS_LABELS[s] }));
const FREQUENCY_OPTIONS = ProgramFrequency.options.map((f) => ({ value: f, label: PROGRAM_FREQUENCY_LABELS[f] }));

/**
 * /business/entity/program — Manage Programs: fee, frequency, dates, enrolled of capacity and
 * status; search, filters, sort, pages and CSV kept in the URL; row actions Edit, Students,
 * Enroll, Activate / Deactivate and Delete (asks first).
 */
export function ProgramsPage() {
  const access = useEndpointAccess(programEndpoints.create);
  const params = useListParams();
  const { run, canWrite } = useProgramActions();
  const navigate = useNavigate();

  const query: ProgramListQuery = {
    ...baseListQuery(params, SORTS, 'createdAt'),
    ...oneOf(params, 'status', ProgramStatus.options),
    ...oneOf(params, 'frequency', ProgramFrequency.options),
  };
  const list = useProgramList(query);

  const actions = (p: Program) => rowActionsOf(permittedProgramActions(p.actions, canWrite), run);

  const columns: Column<Program>[] = [
    {
      key: 'name',
      header: 'Program',
      sortKey: 'name',
      render: (p) => <NameCell name={p.name} detail={p.description} clamp />,
    },
    { key: 'fee', header: 'Fee', sortKey: 'fee', align: 'right', render: (p) => formatMoney(p.feeCents) },
    { key: 'frequency', header: 'Frequency', render: (p) => PROGRAM_FREQUENCY_LABELS[p.frequency] },
    {
      key: 'dates',
      header: 'Dates',
      sortKey: 'startDate',
      render: (p) => `${formatDay(p.startDate)} – ${p.endDate ? formatDay(p.endDate) : 'no end'}`,
    },
    { key: 'enrolled', header: 'Enrolled / capacity', align: 'right', render: (p) => enrolledOfCapacity(p) },
    { key: 'status', header: 'Status', render: (p) => <ProgramStatusBadge status={p.status} /> },
  ];

  const addButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => void navigate(programManageHref())} disabled={!access.allowed}>
      Add program
    </Button>
  );

  return (
    <EntityListPage
      title="Manage Programs"
      documentTitle="Programs"
      description="What you bill families for: each program’s fee, how often it is billed, its dates and places."
      actions={addButton}
      access={access}
      params={params}
      query={query}
      list={list}
      filters={[
        { name: 'status', label: 'Status', placeholder: 'Any status', data: STATUS_OPTIONS, width: 160 },
        { name: 'frequency', label: 'Frequency', placeholder: 'Any', data: FREQUENCY_OPTIONS, width: 160 },
      ]}
      caption="Programs"
      columns={columns}
      rowKey={(p) => p.programId}
      searchPlaceholder="Program name or description"
      rowActions={actions}
      download={(id) => downloadProgramsCsv(id, query)}
      noMatches={{ title: 'No programs match', description: 'Nothing matches the search and filters you chose. Clear them to see every program.' }}
      empty={{
        title: 'No programs yet',
        description: 'Add the programs you bill for — a class, a club, a term’s tuition — then enroll students in them.',
        action: canWrite ? addButton : undefined,
      }}
    />
  );
}
