import { lazy, Suspense } from 'react';
import { StudentsPage } from '../../features/students/pages/students-page';
import { useProgramList } from '../../features/programs/api/programs-api';

const StudentEnrollmentsDrawer = lazy(async () => ({
  default: (await import('../../features/programs/components/student-enrollments-drawer')).StudentEnrollmentsDrawer,
}));

/** /business/entity/students: the students (students feature), filtered by program and enrolled through the programs feature's drawer. */
export function StudentsRoute() {
  const programs = useProgramList({ pageSize: 100, sortBy: 'name', sortDirection: 'asc' });
  return (
    <StudentsPage
      programs={(programs.data?.items ?? []).map((p) => ({ value: p.programId, label: p.name }))}
      enrollments={({ businessId, student, onClose }) =>
        student ? (
          <Suspense fallback={null}>
            <StudentEnrollmentsDrawer businessId={businessId} student={student} onClose={onClose} />
          </Suspense>
        ) : null
      }
    />
  );
}
