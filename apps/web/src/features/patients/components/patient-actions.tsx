import { PARTY_TEMPLATES, PatientAction, type Patient, patientEndpoints } from '@tay/contract';
import { usePartyRowActions } from '../../../components/parties/party-row-actions';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { usePatientCommand } from '../api/patients-api';

/**
 * A patient's row actions (the party's, ADR 048): Edit opens the record, Request to Pay the single
 * statement, Transactions the history filtered to the patient; Deactivate and Delete ask first;
 * Activate happens at once. Transactions changes nothing, so a person who cannot change the
 * practice's patients still has it.
 */
export function usePatientActions() {
  const command = usePatientCommand();
  return usePartyRowActions<Patient, PatientAction>({
    template: PARTY_TEMPLATES.healthCare,
    idOf: (p) => p.clientId,
    known: PatientAction.options,
    readOnly: ['Transactions'],
    canWrite: useEndpointAccess(patientEndpoints.create).allowed,
    command: (p, name, callbacks) => command.mutate({ clientId: p.clientId, command: name }, callbacks),
    done: { deleted: (p) => `${p.name} is gone; their guarantor stays your payer.` },
    confirmText: {
      delete: 'The patient and the record of who viewed it are removed for good (the audit log keeps its entries). Their guarantor stays your payer.',
      deactivate: 'They cannot be billed (a statement or a bulk statement) until you activate them again. Nothing already sent changes.',
    },
  });
}
