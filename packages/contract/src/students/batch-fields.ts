import type { BatchField } from '../batches/schemas';

/**
 * The student template's two kinds of batch (ADR 036): `students` imports students with their
 * guardians (matched by e-mail, never duplicated); `student-billing` bills students for a program
 * and a period (a cycle's run, Program Billing, or Request to Pay Multiple Students).
 */
export const STUDENT_BATCH_FIELDS = [
  {
    key: 'studentNumber',
    label: 'Student id',
    required: 'always',
    hint: "The school's own id for the student",
    synonyms: ['studentid', 'studentnumber', 'studentno', 'id', 'pupilid', 'memberid'],
  },
  {
    key: 'firstName',
    label: 'First name',
    required: 'always',
    hint: "The student's first name",
    synonyms: ['firstname', 'studentfirstname', 'first', 'givenname'],
  },
  {
    key: 'lastName',
    label: 'Last name',
    required: 'always',
    hint: "The student's last name",
    synonyms: ['lastname', 'studentlastname', 'last', 'surname', 'familyname'],
  },
  {
    key: 'grade',
    label: 'Grade or group',
    hint: 'Year 7, Grade 5, U12 Blue (blank: none)',
    synonyms: ['grade', 'group', 'year', 'class', 'form', 'team', 'level'],
  },
  { key: 'dateOfBirth', label: 'Date of birth', hint: '2014-05-31, 05/31/2014 or May 31, 2014', synonyms: ['dateofbirth', 'dob', 'birthdate', 'birthday'] },
  {
    key: 'guardianEmail',
    label: 'Guardian e-mail',
    required: 'always',
    hint: "The first guardian's e-mail (an existing payer is used, never a copy)",
    synonyms: ['guardianemail', 'parentemail', 'guardian1email', 'parent1email', 'email', 'payeremail'],
  },
  {
    key: 'guardianFirstName',
    label: 'Guardian first name',
    hint: 'For a guardian who is not a payer yet',
    synonyms: ['guardianfirstname', 'parentfirstname', 'guardian1firstname', 'parent1firstname'],
  },
  {
    key: 'guardianLastName',
    label: 'Guardian last name',
    hint: 'For a guardian who is not a payer yet',
    synonyms: ['guardianlastname', 'parentlastname', 'guardian1lastname', 'parent1lastname'],
  },
  {
    key: 'guardianMobile',
    label: 'Guardian mobile',
    hint: '+1 555 010 0000 (blank: none)',
    synonyms: ['guardianmobile', 'parentmobile', 'guardianphone', 'parentphone', 'mobile', 'phone'],
  },
  { key: 'guardian2Email', label: 'Second guardian e-mail', hint: 'Blank: one guardian', synonyms: ['guardian2email', 'parent2email', 'secondguardianemail'] },
  {
    key: 'guardian2FirstName',
    label: 'Second guardian first name',
    hint: 'For a second guardian who is not a payer yet',
    synonyms: ['guardian2firstname', 'parent2firstname'],
  },
  {
    key: 'guardian2LastName',
    label: 'Second guardian last name',
    hint: 'For a second guardian who is not a payer yet',
    synonyms: ['guardian2lastname', 'parent2lastname'],
  },
] as const satisfies readonly BatchField[];

export const STUDENT_BILLING_BATCH_FIELDS = [
  {
    key: 'studentNumber',
    label: 'Student id',
    required: 'always',
    hint: "The school's id of an active student",
    synonyms: ['studentid', 'studentnumber', 'studentno', 'id', 'pupilid', 'memberid'],
  },
  {
    key: 'program',
    label: 'Program',
    hint: 'The program billed, by name (blank: none)',
    synonyms: ['program', 'programme', 'programname', 'course', 'class', 'activity'],
  },
  { key: 'amount', label: 'Amount', hint: "125.50 or $1,234.50 (blank: the program's fee)", synonyms: ['amount', 'fee', 'total', 'sum', 'price', 'amountusd'] },
  { key: 'period', label: 'Period', hint: 'What it bills for: December 2026, Term 1 (blank: none)', synonyms: ['period', 'month', 'term', 'billingperiod'] },
  { key: 'memo', label: 'Memo', hint: 'What it is for (shown to the guardian)', synonyms: ['memo', 'description', 'for', 'note', 'notes'] },
  {
    key: 'dueDate',
    label: 'Due date',
    required: 'always',
    hint: '2026-12-31, 12/31/2026 or Dec 31, 2026',
    synonyms: ['duedate', 'due', 'dueon', 'paymentdue'],
  },
  { key: 'billTo', label: 'Bill', hint: 'guardian (the first) or both (blank: guardian)', synonyms: ['bill', 'billto', 'guardians', 'sendto'] },
] as const satisfies readonly BatchField[];

export const STUDENT_BATCH_TEMPLATE = {
  fileName: 'students-template.csv',
  rows: [
    [
      'Student id',
      'First name',
      'Last name',
      'Grade',
      'Date of birth',
      'Guardian e-mail',
      'Guardian first name',
      'Guardian last name',
      'Guardian mobile',
      'Guardian 2 e-mail',
      'Guardian 2 first name',
      'Guardian 2 last name',
    ],
    ['S-1001', 'Mia', 'Lopez', 'Year 5', '2016-03-14', 'ana.lopez@example.com', 'Ana', 'Lopez', '+1 555 010 0001', '', '', ''],
    ['S-1002', 'Leo', 'Lee', 'Year 7', '04/02/2014', 'sam.lee@example.com', 'Sam', 'Lee', '', 'kim.lee@example.com', 'Kim', 'Lee'],
  ],
};

export const STUDENT_BILLING_BATCH_TEMPLATE = {
  fileName: 'student-billing-template.csv',
  rows: [
    ['Student id', 'Program', 'Amount', 'Period', 'Memo', 'Due date', 'Bill'],
    ['S-1001', 'Piano', '', 'December 2026', 'December piano lessons', '2026-12-10', 'guardian'],
    ['S-1002', '', '$45.00', '', 'School trip', '12/15/2026', 'both'],
  ],
};
