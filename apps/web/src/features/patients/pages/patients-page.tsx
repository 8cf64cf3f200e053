import { Anchor, Badge, Button, Group, Text } from '@mantine/core';
import { IconPlus, IconUpload } from '@tabler/icons-react';
import { Link } from 'react-router';
import {
  formatMoney,
  GUARANTOR_RELATIONSHIP_LABELS,
  GuarantorRelationship,
  PATIENT_STATUS_LABELS,
  paths,
  PatientSortBy,
  PatientStatus,
  type Patient,
  type PatientListQuery,
  patientEndpoints,
} from '@tay/contract';
import { type Column, type RowAction } from '../../../components/ui/data-table';
import { EntityListPage } from '../../../components/ui/entity-list-page';
import { useListParams } from '../../../lib/list-params';
import { useBusinessTime } from '../../../lib/business-time';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { downloadPatientsCsv, usePatientList } from '../api/patients-api';
import { permittedPatientActions, usePatientActions } from '../components/patient-actions';

const STATUS_OPTIONS = PatientStatus.options.map((s) => ({ value: s, label: PATIENT_STATUS_LABELS[s] }));
const RELATIONSHIP_OPTIONS = GuarantorRelationship.options.map((r) => ({ value: r, label: GUARANTOR_RELATIONSHIP_LABELS[r] }));

export function PatientStatusBadge({ status }: { status: PatientStatus }) {
  return (
    <Badge color={status === 'active' ? 'teal' : 'gray'} variant="light">
      {PATIENT_STATUS_LABELS[status]}
    </Badge>
  );
}

/**
 * /business/healthcare-clients — the nav's Manage Clients: the practice's patients with who pays
 * for them; search, filters (status, guarantor), sort, pages and CSV export kept in the URL; add,
 * import and the row actions (Edit, Request to Pay, Transactions, Activate / Deactivate, Delete).
 * The date of birth is masked here: the full record is only shown (and its view recorded) on the
 * patient's own page.
 */
export function PatientsPage() {
  const clock = useBusinessTime();
  const access = useEndpointAccess(patientEndpoints.create);
  const params = useListParams();
  const { get, page, pageSize } = params;
  const { run, canWrite } = usePatientActions();

  const sortBy = get('sortBy');
  const status = get('status');
  const relationship = get('relationship');
  const query: PatientListQuery = {
    page,
    pageSize,
    sortBy: (PatientSortBy.options as readonly string[]).includes(sortBy ?? '') ? (sortBy as PatientSortBy) : 'createdAt',
    sortDirection: get('sortDirection') === 'asc' ? 'asc' : 'desc',
    ...(get('search') ? { search: get('search') } : {}),
    ...((PatientStatus.options as readonly string[]).includes(status ?? '') ? { status: status as PatientStatus } : {}),
    ...((GuarantorRelationship.options as readonly string[]).includes(relationship ?? '') ? { relationship: relationship as GuarantorRelationship } : {}),
  };
  const list = usePatientList(query);

  const actions = (p: Patient): RowAction<Patient>[] =>
    permittedPatientActions(p.actions, canWrite).map((action) => ({
      label: action,
      onClick: (row) => run(action, row),
      ...(action === 'Delete' ? { color: 'red' } : {}),
    }));

  const columns: Column<Patient>[] = [
    {
      key: 'name',
      header: 'Patient',
      sortKey: 'name',
      render: (p) => (
        <div>
          <Anchor component={Link} to={`${paths.entity.healthcareClientEdit}?clientId=${encodeURIComponent(p.clientId)}`} size="sm" fw={500}>
            {p.name}
          </Anchor>
          <Text size="xs" c="dimmed" aria-label={`Date of birth masked: year ${p.dateOfBirthMasked.slice(-4)}`}>
            Born {p.dateOfBirthMasked}
          </Text>
        </div>
      ),
    },
    { key: 'mrn', header: 'MRN', sortKey: 'mrn', render: (p) => p.mrn },
    {
      key: 'guarantor',
      header: 'Guarantor',
      render: (p) => (
        <div>
          <Text size="sm">
            {p.guarantor.name}
            <Text span size="xs" c="dimmed">
              {' '}
              · {GUARANTOR_RELATIONSHIP_LABELS[p.guarantor.relationship]}
            </Text>
          </Text>
          <Text size="xs" c="dimmed">
            {p.guarantor.email}
          </Text>
        </div>
      ),
    },
    { key: 'statements', header: 'Requests', render: (p) => String(p.requestsCount) },
    { key: 'outstanding', header: 'Outstanding', render: (p) => formatMoney(p.outstandingCents) },
    { key: 'status', header: 'Status', sortKey: 'status', render: (p) => <PatientStatusBadge status={p.status} /> },
    { key: 'created', header: 'Added', sortKey: 'createdAt', render: (p) => clock.date(p.createdAt) },
  ];

  const addButton = (
    <Button component={Link} to={paths.entity.healthcareClientAdd} leftSection={<IconPlus size={16} />} disabled={!access.allowed}>
      Add patient
    </Button>
  );
  const importButton = (
    <Button component={Link} to={paths.entity.healthcareClientImport} variant="default" leftSection={<IconUpload size={16} />} disabled={!access.allowed}>
      Import patients
    </Button>
  );

  return (
    <EntityListPage
      title="Patients"
      description={
        <>
          Your patients and who pays for them. Dates of birth are masked here; opening a patient&apos;s record is recorded.{' '}
          <Anchor component={Link} to={paths.entity.healthcareClientImports} size="sm" underline="always">
            Past imports
          </Anchor>
        </>
      }
      actions={
        <>
          {access.allowed ? importButton : null}
          {access.allowed ? addButton : null}
        </>
      }
      access={access}
      params={params}
      query={query}
      defaultSort={{ sortBy: 'createdAt', sortDirection: 'desc' }}
      list={list}
      filters={[
        { name: 'status', label: 'Status', placeholder: 'Any status', data: STATUS_OPTIONS, width: 160 },
        { name: 'relationship', label: 'Guarantor', placeholder: 'Anyone', data: RELATIONSHIP_OPTIONS, width: 200 },
      ]}
      caption="Patients"
      columns={columns}
      rowKey={(p) => p.clientId}
      searchPlaceholder="Name, MRN or guarantor e-mail"
      rowActions={actions}
      download={(businessId) => downloadPatientsCsv(businessId, query)}
      noMatches={{ title: 'No patients match', description: 'Nothing matches the search and filters you chose. Clear them to see every patient.' }}
      empty={{
        title: 'No patients yet',
        description: 'Add your patients one by one, or import them with their guarantors from a CSV file.',
        action: canWrite ? (
          <Group gap="sm" justify="center">
            {importButton}
            {addButton}
          </Group>
        ) : undefined,
      }}
    />
  );
}
