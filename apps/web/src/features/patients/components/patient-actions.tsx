import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import { getHref, paths, PatientAction, type Patient, patientEndpoints } from '@tay/contract';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { usePatientCommand, type PatientCommand } from '../api/patients-api';

/** The actions that change nothing here: all a person may use who cannot change the practice's patients. */
const READ_ONLY: ReadonlySet<PatientAction> = new Set(['Transactions']);

/** The patient's actions (as the API lists them, from `patientActions`), less those that change it when the person may not. */
export function permittedPatientActions(actions: readonly string[], canWrite: boolean): PatientAction[] {
  const known = actions.filter((a): a is PatientAction => (PatientAction.options as readonly string[]).includes(a));
  return canWrite ? known : known.filter((a) => READ_ONLY.has(a));
}

export const patientEditHref = (clientId: string) => getHref(paths.entity.healthcareClientEdit, undefined, { clientId });
export const patientRequestHref = (clientId: string) => getHref(paths.entity.healthcareRequest, undefined, { entity: 'true', clientId });
export const patientTransactionsHref = (clientId: string) => getHref(paths.payments.history, undefined, { clientId });

const DONE: Record<PatientCommand, { title: string; verb: string; text: (p: Patient) => string }> = {
  activate: { title: 'Patient activated', verb: 'activated', text: (p) => `${p.name} can be billed again.` },
  deactivate: { title: 'Patient deactivated', verb: 'deactivated', text: (p) => `${p.name} is not billed until you activate them again.` },
  delete: { title: 'Patient deleted', verb: 'deleted', text: (p) => `${p.name} is gone; their guarantor stays your payer.` },
};

/**
 * What each row action does: Edit opens the record, Request to Pay the single statement, Transactions
 * the history filtered to the patient; Deactivate and Delete ask first; Activate happens at once.
 * Each change is said in a toast.
 */
export function usePatientActions() {
  const navigate = useNavigate();
  const canWrite = useEndpointAccess(patientEndpoints.create).allowed;
  const command = usePatientCommand();

  const change = (patient: Patient, name: PatientCommand) =>
    command.mutate(
      { clientId: patient.clientId, command: name },
      {
        onSuccess: () => notifications.show({ color: 'teal', title: DONE[name].title, message: DONE[name].text(patient) }),
        onError: (error) => notifications.show({ color: 'red', title: `${patient.name} was not ${DONE[name].verb}`, message: error.message }),
      },
    );

  const confirm = (patient: Patient, name: 'deactivate' | 'delete') =>
    modals.openConfirmModal({
      title: name === 'delete' ? `Delete ${patient.name}?` : `Deactivate ${patient.name}?`,
      children: (
        <Text size="sm">
          {name === 'delete'
            ? 'The patient and the record of who viewed it are removed for good (the audit log keeps its entries). Their guarantor stays your payer.'
            : 'They cannot be billed (a statement or a bulk statement) until you activate them again. Nothing already sent changes.'}
        </Text>
      ),
      labels: { confirm: name === 'delete' ? 'Yes, delete' : 'Yes, deactivate', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () => change(patient, name),
    });

  const run = (action: PatientAction, patient: Patient) => {
    switch (action) {
      case 'Edit':
        return void navigate(patientEditHref(patient.clientId));
      case 'Request to Pay':
        return void navigate(patientRequestHref(patient.clientId));
      case 'Transactions':
        return void navigate(patientTransactionsHref(patient.clientId));
      case 'Activate':
        return change(patient, 'activate');
      case 'Deactivate':
        return confirm(patient, 'deactivate');
      case 'Delete':
        return confirm(patient, 'delete');
    }
  };

  return { run, canWrite };
}
