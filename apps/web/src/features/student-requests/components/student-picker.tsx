import { PARTY_TEMPLATES } from '@tay/contract';
import { PartyPicker, type PartyOptionsQuery } from '../../../components/parties/party-picker';
import { useStudentOptions } from '../api/student-requests-api';

export interface PickedStudent {
  studentId: string;
  name: string;
  studentNumber: string;
}

/** "Mia Lopez (S-1001)": a student as the picker lists them. */
export const studentLabel = (s: PickedStudent) => `${s.name} (${s.studentNumber})`;

/** "Mia Lopez (S-1001)", or the name alone when the student id is not known here. */
const labelOf = (s: PickedStudent) => (s.studentNumber ? studentLabel(s) : s.name);

/**
 * Student typeahead: the business's students whose name or student id holds what is typed (the
 * students list's own search), twenty at a time — active ones only for a new request; every one
 * as a list filter (`compact`, `includeInactive`).
 */
export function StudentPicker(props: {
  value: PickedStudent | null;
  onChange: (student: PickedStudent | null) => void;
  error?: string | undefined;
  compact?: boolean;
  includeInactive?: boolean;
}) {
  return <PartyPicker template={PARTY_TEMPLATES.student} idOf={(s) => s.studentId} labelOf={labelOf} useOptions={useStudentPickerOptions} {...props} />;
}

/** The students list's own search, as the picker's options. */
function useStudentPickerOptions(query: PartyOptionsQuery): { items: PickedStudent[]; isFetching: boolean } {
  const list = useStudentOptions(query);
  const items = (list.data?.items ?? []).map((s) => ({ studentId: s.studentId, name: s.name, studentNumber: s.studentNumber }));
  return { items, isFetching: list.isFetching };
}
