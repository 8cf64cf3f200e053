import type { EntityType } from '../businesses/schemas';
import { getHref, paths } from '../platform/routes';

/**
 * A template with a party of its own (ADR 048): the person the business bills for, who is not
 * the payer — a school's student paid for by guardians, a practice's patient paid for by a
 * guarantor. The student and healthcare templates are two definitions of this one shape; the API's
 * imports (`domain/batches/party-rows.ts`) and the web's row actions, record fields and pages
 * (`components/parties/`) read their words, columns and pages from here. A third template (a club's
 * members paid for by an account holder) is a third definition — ARCHITECTURE.md §10 walks it.
 */
export interface PartyTemplate {
  entityType: Exclude<EntityType, 'standard'>;
  /** The party in words: "student", "students", "Student". */
  party: { one: string; many: string; title: string };
  /** The party's own id as the business names it: its label, its words in a sentence, and what it is. */
  idLabel: string;
  idWords: string;
  idDescription: string;
  /** Who pays for the party: "guardian" (up to two), "guarantor" (one). */
  payerRole: { one: string; title: string; most: number };
  /** Where the party is kept: the table and the column of its own id (the import checks ids are free there). */
  store: { table: 'students' | 'patients'; idColumn: 'student_number' | 'mrn' };
  /** The party import (a batch kind): the row's id field and the fields that name payers by e-mail. */
  import: { kind: 'students' | 'patients'; idField: string; payerEmailFields: readonly string[] };
  /** The batch kind that bills the parties from a file. */
  billingKind: 'student-billing' | 'patient-billing';
  /** The party's pages, and the query parameter that names one party on them. */
  pages: {
    list: string;
    listTitle: string;
    add: string;
    edit: string;
    import: string;
    imports: string;
    idParam: 'studentId' | 'clientId';
    request: string;
    transactions: string;
  };
}

export type PartyTemplateType = PartyTemplate['entityType'];

export const PARTY_TEMPLATES: Record<PartyTemplateType, PartyTemplate> = {
  student: {
    entityType: 'student',
    party: { one: 'student', many: 'students', title: 'Student' },
    idLabel: 'Student id',
    idWords: 'student id',
    idDescription: "Your school's own id for the student",
    payerRole: { one: 'guardian', title: 'Guardian', most: 2 },
    store: { table: 'students', idColumn: 'student_number' },
    import: { kind: 'students', idField: 'studentNumber', payerEmailFields: ['guardianEmail', 'guardian2Email'] },
    billingKind: 'student-billing',
    pages: {
      list: paths.entity.students,
      listTitle: 'Manage Students',
      add: paths.entity.studentAdd,
      edit: paths.entity.studentEdit,
      import: paths.entity.studentImport,
      imports: paths.entity.studentImports,
      idParam: 'studentId',
      request: paths.entity.studentRequest,
      transactions: paths.entity.billingTransactions,
    },
  },
  healthCare: {
    entityType: 'healthCare',
    party: { one: 'patient', many: 'patients', title: 'Patient' },
    idLabel: 'MRN',
    idWords: 'MRN',
    idDescription: "Your practice's own id for the patient (medical record number)",
    payerRole: { one: 'guarantor', title: 'Guarantor', most: 1 },
    store: { table: 'patients', idColumn: 'mrn' },
    import: { kind: 'patients', idField: 'mrn', payerEmailFields: ['guarantorEmail'] },
    billingKind: 'patient-billing',
    pages: {
      list: paths.entity.healthcareClients,
      listTitle: 'Manage Clients',
      add: paths.entity.healthcareClientAdd,
      edit: paths.entity.healthcareClientEdit,
      import: paths.entity.healthcareClientImport,
      imports: paths.entity.healthcareClientImports,
      idParam: 'clientId',
      request: paths.entity.healthcareRequest,
      transactions: paths.payments.history,
    },
  },
};

/** The party's pages with one party named: its edit form, its single request, its transactions. */
export function partyHrefs(template: PartyTemplate, id: string) {
  const named = { [template.pages.idParam]: id };
  return {
    edit: getHref(template.pages.edit, undefined, named),
    request: getHref(template.pages.request, undefined, { entity: 'true', ...named }),
    transactions: getHref(template.pages.transactions, undefined, named),
  };
}
