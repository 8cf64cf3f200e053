import type { BatchField } from '../batches/schemas';

/**
 * The healthcare template's two kinds of batch (ADR 037): `patients` imports patients with their
 * guarantors (matched to existing payers by e-mail, never duplicated); `patient-billing` reads a
 * file of charges, one per line, and groups them into one statement per patient.
 */
export const PATIENT_BATCH_FIELDS = [
  {
    key: 'mrn',
    label: 'Patient id (MRN)',
    required: 'always',
    hint: "The practice's own id for the patient",
    synonyms: ['mrn', 'patientid', 'patientnumber', 'medicalrecordnumber', 'chartnumber', 'id'],
  },
  {
    key: 'firstName',
    label: 'First name',
    required: 'always',
    hint: "The patient's first name",
    synonyms: ['firstname', 'patientfirstname', 'first', 'givenname'],
  },
  {
    key: 'lastName',
    label: 'Last name',
    required: 'always',
    hint: "The patient's last name",
    synonyms: ['lastname', 'patientlastname', 'last', 'surname', 'familyname'],
  },
  {
    key: 'dateOfBirth',
    label: 'Date of birth',
    required: 'always',
    hint: '1984-05-31, 05/31/1984 or May 31, 1984',
    synonyms: ['dateofbirth', 'dob', 'birthdate', 'birthday'],
  },
  {
    key: 'guarantorRelationship',
    label: 'Guarantor',
    hint: 'self (the patient pays), parent, spouse, child or other (blank: self)',
    synonyms: ['guarantor', 'relationship', 'guarantorrelationship', 'responsibleparty'],
  },
  {
    key: 'guarantorEmail',
    label: 'Guarantor e-mail',
    required: 'always',
    hint: "The e-mail of who pays: the patient's own when self (an existing payer is used, never a copy)",
    synonyms: ['guarantoremail', 'email', 'payeremail', 'patientemail', 'emailaddress'],
  },
  {
    key: 'guarantorFirstName',
    label: 'Guarantor first name',
    hint: 'For a guarantor other than the patient who is not a payer yet',
    synonyms: ['guarantorfirstname', 'responsiblepartyfirstname'],
  },
  {
    key: 'guarantorLastName',
    label: 'Guarantor last name',
    hint: 'For a guarantor other than the patient who is not a payer yet',
    synonyms: ['guarantorlastname', 'responsiblepartylastname'],
  },
  {
    key: 'guarantorMobile',
    label: 'Guarantor mobile',
    hint: '+1 555 010 0000 (blank: none)',
    synonyms: ['guarantormobile', 'mobile', 'phone', 'guarantorphone', 'cell'],
  },
] as const satisfies readonly BatchField[];

export const PATIENT_BILLING_BATCH_FIELDS = [
  {
    key: 'mrn',
    label: 'Patient id (MRN)',
    required: 'always',
    hint: 'An active patient of the practice',
    synonyms: ['mrn', 'patientid', 'patientnumber', 'medicalrecordnumber', 'chartnumber', 'id'],
  },
  {
    key: 'dateOfService',
    label: 'Date of service',
    required: 'always',
    hint: '2026-11-20, 11/20/2026 or Nov 20, 2026',
    synonyms: ['dateofservice', 'servicedate', 'dos', 'date', 'visitdate'],
  },
  {
    key: 'description',
    label: 'Description',
    required: 'always',
    hint: 'What was done: Office visit, X-ray',
    synonyms: ['description', 'service', 'procedure', 'item', 'charge'],
  },
  {
    key: 'billed',
    label: 'Billed',
    required: 'always',
    hint: 'The charge: 250.00 or $1,234.50',
    synonyms: ['billed', 'charge', 'charges', 'billedamount', 'amount', 'fee'],
  },
  {
    key: 'insurancePaid',
    label: 'Insurance paid',
    hint: 'What insurance paid (blank: 0)',
    synonyms: ['insurancepaid', 'insurance', 'insurancepayment', 'paidbyinsurance', 'planpaid'],
  },
  {
    key: 'adjustment',
    label: 'Adjustment',
    hint: 'Write-off or discount (blank: 0)',
    synonyms: ['adjustment', 'adjustments', 'writeoff', 'discount', 'contractualadjustment'],
  },
  {
    key: 'patientResponsibility',
    label: 'Patient responsibility',
    hint: 'What the patient owes: billed − insurance paid − adjustment (blank: computed)',
    synonyms: ['patientresponsibility', 'responsibility', 'patientowes', 'balance', 'patientbalance', 'due', 'amountdue'],
  },
  { key: 'memo', label: 'Memo', hint: 'A note on the statement (shown to the guarantor)', synonyms: ['memo', 'note', 'notes', 'message'] },
  {
    key: 'paymentPlan',
    label: 'Payment plan',
    hint: 'yes: the guarantor may pay in parts; no: in full (blank: yes; a no on any charge of the patient makes it in full)',
    synonyms: ['paymentplan', 'plan', 'allowpartial', 'partial', 'installments', 'instalments'],
  },
  {
    key: 'dueDate',
    label: 'Due date',
    hint: 'Blank: 30 days from today; or 2026-12-31, 12/31/2026, Dec 31, 2026',
    synonyms: ['duedate', 'due', 'dueon', 'paymentdue'],
  },
] as const satisfies readonly BatchField[];

export const PATIENT_BATCH_TEMPLATE = {
  fileName: 'patients-template.csv',
  rows: [
    ['MRN', 'First name', 'Last name', 'Date of birth', 'Guarantor', 'Guarantor e-mail', 'Guarantor first name', 'Guarantor last name', 'Guarantor mobile'],
    ['MRN-1001', 'Ana', 'Lopez', '1984-05-31', 'self', 'ana.lopez@example.com', '', '', '+1 555 010 0001'],
    ['MRN-1002', 'Leo', 'Lee', '04/02/2016', 'parent', 'sam.lee@example.com', 'Sam', 'Lee', ''],
  ],
};

export const PATIENT_BILLING_BATCH_TEMPLATE = {
  fileName: 'patient-billing-template.csv',
  rows: [
    ['MRN', 'Date of service', 'Description', 'Billed', 'Insurance paid', 'Adjustment', 'Patient responsibility', 'Memo', 'Payment plan', 'Due date'],
    ['MRN-1001', '2026-11-20', 'Office visit', '250.00', '180.00', '20.00', '50.00', '', 'yes', '2026-12-31'],
    ['MRN-1001', '2026-11-20', 'X-ray', '$120.00', '100.00', '0', '20.00', '', '', '2026-12-31'],
    ['MRN-1002', '11/18/2026', 'Physiotherapy session', '90.00', '0', '', '90.00', 'Thank you for visiting', 'no', ''],
  ],
};
