import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { paths, type CurrentUser, type CurrentUserResponse, type UserBusinessSummary } from '@tay/contract';
import { api, ApiError, onNoResponse, onUnauthorized } from './api-client';
import { identity, onSessionLost, SESSION_REFRESH_MS, type SessionUser } from './identity';
import { readIdentityToken } from './session-token';

export const sessionKey = ['session'] as const;
export const currentUserKey = ['currentUser'] as const;

export interface SessionValue {
  status: 'loading' | 'anonymous' | 'error' | 'authenticated';
  user: SessionUser | null;
  /** GET /api/user, once loaded (not while the new-password challenge holds the person). */
  currentUser: CurrentUser | undefined;
  currentUserLoading: boolean;
  /** Loading GET /api/user failed (the session itself is fine). */
  currentUserError: Error | null;
  signOut(options?: { reason?: string }): Promise<void>;
  /** Re-reads the session and the user after sign-in, profile changes and the like. */
  refresh(): Promise<void>;
  /**
   * The business the person works in: the one chosen in the header's switcher, else their first
   * (docs/product.md, "Businesses": the first business is selected by default).
   */
  business: UserBusinessSummary | undefined;
  /** Switches to another of the person's businesses; every page's data is read afresh. */
  selectBusiness(businessId: string): void;
}

/** The chosen business, kept in this browser between visits. */
const SELECTED_BUSINESS_KEY = 'tay.selectedBusiness';

function storedBusinessId(): string | null {
  try {
    return window.localStorage.getItem(SELECTED_BUSINESS_KEY);
  } catch {
    return null;
  }
}

const SessionContext = createContext<SessionValue | null>(null);

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}

/** Knows who is signed in, keeps the session fresh, and signs out when it is lost. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const session = useQuery({
    queryKey: sessionKey,
    queryFn: async () => {
      const result = await identity.currentSession();
      if (result.status !== true) throw new Error(result.status === false ? result.error.message : result.errorDetails.message);
      return result.data;
    },
    staleTime: Infinity,
    retry: false,
    // The session is refreshed before it can lapse, while the app is open (docs/product.md §9).
    refetchInterval: SESSION_REFRESH_MS,
    refetchIntervalInBackground: true,
  });
  const user = session.data ?? null;

  const currentUser = useQuery({
    queryKey: currentUserKey,
    // The plain client with the contract's types only: the session is in the sign-in page's
    // bundle, and the endpoint table would bring zod with it (the page's weight budget).
    queryFn: () => api.get<CurrentUserResponse>('/user').then((r) => r.data),
    enabled: Boolean(user) && !user?.mustChangePassword,
    staleTime: 60_000,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });

  const [selectedId, setSelectedId] = useState<string | null>(storedBusinessId);
  const selectBusiness = useCallback(
    (businessId: string) => {
      try {
        window.localStorage.setItem(SELECTED_BUSINESS_KEY, businessId);
      } catch {
        // Private windows may refuse storage: the choice then lasts for this visit.
      }
      setSelectedId(businessId);
      // Every read of the other business goes; the session and the user stay.
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionKey[0] && q.queryKey[0] !== currentUserKey[0] });
    },
    [queryClient],
  );

  const signOut = useCallback(
    async ({ reason }: { reason?: string } = {}) => {
      await identity.signOut();
      // The next person to sign in here starts on their own first business.
      try {
        window.localStorage.removeItem(SELECTED_BUSINESS_KEY);
      } catch {
        // nothing kept, nothing to forget
      }
      setSelectedId(null);
      queryClient.setQueryData(sessionKey, null);
      queryClient.removeQueries({ queryKey: currentUserKey });
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionKey[0] });
      if (reason) notifications.show({ color: 'yellow', title: 'Signed out', message: reason });
      void navigate(paths.login, { replace: true });
    },
    [navigate, queryClient],
  );

  useEffect(() => {
    const lost = () =>
      void signOut({ reason: 'We lost the connection to Tay, so we signed you out to keep your account safe. Sign in again when you are back online.' });
    const offLost = onSessionLost(lost);
    const offNoResponse = onNoResponse(lost);
    const offUnauthorized = onUnauthorized(() => {
      if (readIdentityToken()) void signOut({ reason: 'Your session has ended. Please sign in again.' });
    });
    return () => {
      offLost();
      offNoResponse();
      offUnauthorized();
    };
  }, [signOut]);

  const refresh = useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: sessionKey });
    await queryClient.invalidateQueries({ queryKey: currentUserKey });
  }, [queryClient]);

  const value = useMemo<SessionValue>(() => {
    const status: SessionValue['status'] = session.isPending ? 'loading' : session.isError ? 'error' : user ? 'authenticated' : 'anonymous';
    const businesses = currentUser.data?.businesses ?? [];
    return {
      status,
      user,
      business: businesses.find((b) => b.businessId === selectedId) ?? businesses[0],
      selectBusiness,
      currentUser: currentUser.data,
      currentUserLoading: currentUser.isPending && currentUser.fetchStatus !== 'idle',
      currentUserError: currentUser.error,
      signOut,
      refresh,
    };
  }, [
    session.isPending,
    session.isError,
    user,
    currentUser.data,
    currentUser.isPending,
    currentUser.fetchStatus,
    currentUser.error,
    signOut,
    refresh,
    selectedId,
    selectBusiness,
  ]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The selected business's id (see `SessionValue.business`). */
export function useBusinessId(): string | undefined {
  return useSession().business?.businessId;
}
