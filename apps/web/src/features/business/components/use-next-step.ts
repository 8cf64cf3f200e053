import { useNavigate } from 'react-router';
import { paths, type Business } from '@tay/contract';
import { useFreshMissing } from '../api/business-api';
import { nextStep, type SetupStep } from './setup-steps';

/**
 * After a setup page saves: on to the next step that still has something to do, or back to the
 * overview (which offers to submit) when none has. If what is missing cannot be read, the
 * overview says it.
 */
export function useGoToNextStep(current: SetupStep['key']): (saved: Business) => Promise<void> {
  const navigate = useNavigate();
  const freshMissing = useFreshMissing();
  return async (saved) => {
    let to: string = paths.business.setup;
    try {
      to = nextStep(current, await freshMissing(), saved)?.to ?? paths.business.setup;
    } catch {
      // The overview loads what is missing itself, and shows it or the error.
    }
    await navigate(to);
  };
}
