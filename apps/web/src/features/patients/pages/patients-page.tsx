import { Anchor, Badge, Text } from '@mantine/core';
import { Link } from 'react-router';
import {
  formatMoney,
  GUARANTOR_RELATIONSHIP_LABELS,
  GuarantorRelationship,
  PATIENT_STATUS_LABELS,
  PARTY_TEMPLATES,
  partyHrefs,
  PatientSortBy,
  PatientStatus,
  type Patient,
  type PatientListQuery,
  patientEndpoints,
} from '@tay/contract';
import { type Column } from '../../../components/ui/data-table';
import { EntityListPage } from '../../../components/ui/entity-list-page';
import { baseListQuery, oneOf, useListParams } from '../../../lib/list-params';
import { useBusinessTime } from '../../../lib/business-time';
import { partyListChrome } from '../../../components/parties/party-list-chrome';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { downloadPatientsCsv, usePatientList } from '../api/patients-api';
import { usePatientActions } from '../components/patient-actions';

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
  const { rowActions } = usePatientActions();

  const query: PatientListQuery = {
    ...baseListQuery(params, PatientSortBy.options, 'createdAt'),
    ...oneOf(params, 'status', PatientStatus.options),
    ...oneOf(params, 'relationship', GuarantorRelationship.options),
  };
  const list = usePatientList(query);

  const columns: Column<Patient>[] = [
    {
      key: 'name',
      header: 'Patient',
      sortKey: 'name',
      render: (p) => (
        <div>
          <Anchor component={Link} to={partyHrefs(PARTY_TEMPLATES.healthCare, p.clientId).edit} size="sm" fw={500}>
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

  const chrome = partyListChrome(
    PARTY_TEMPLATES.healthCare,
    access.allowed,
    <>Your patients and who pays for them. Dates of birth are masked here; opening a patient&apos;s record is recorded.</>,
  );

  return (
    <EntityListPage
      title="Patients"
      description={chrome.description}
      actions={chrome.actions}
      access={access}
      params={params}
      query={query}
      list={list}
      filters={[
        { name: 'status', label: 'Status', placeholder: 'Any status', data: STATUS_OPTIONS, width: 160 },
        { name: 'relationship', label: 'Guarantor', placeholder: 'Anyone', data: RELATIONSHIP_OPTIONS, width: 200 },
      ]}
      caption={chrome.caption}
      columns={columns}
      rowKey={(p) => p.clientId}
      searchPlaceholder="Name, MRN or guarantor e-mail"
      rowActions={rowActions}
      download={(businessId) => downloadPatientsCsv(businessId, query)}
      noMatches={chrome.noMatches}
      empty={chrome.empty}
    />
  );
}
