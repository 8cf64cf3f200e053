import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, vi } from 'vitest';
import type { Business, CurrentUser, UserBusinessSummary } from '@tay/contract';
import { writeIdentityToken } from '../lib/session-token';
import { currentUserKey, SessionProvider, sessionKey } from '../lib/session';

// Pages debounce, fetch and re-render; on a busy machine that takes longer than the default 1 s.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no font loading API; Mantine's autosizing Textarea listens to it.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: { addEventListener: () => {}, removeEventListener: () => {} } });
}

export const BUSINESS_ID = 'biz_test';

export interface ApiCall {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal | null;
}

/** `stream`: a body that arrives over time (an event stream). */
type Answer = { status?: number; json?: unknown; text?: string; stream?: ReadableStream<Uint8Array>; headers?: Record<string, string> };
type Handler = (call: ApiCall) => Answer | undefined;

/**
 * The API as the browser sees it, for page tests in jsdom (there is no server here): records
 * every call the page makes and answers from handlers, newest first. Unanswered calls are 404.
 */
export class FakeApi {
  readonly calls: ApiCall[] = [];
  private handlers: Handler[] = [];

  /** Forgets every handler and call: the state of a new test. */
  reset(): this {
    this.calls.length = 0;
    this.handlers = [];
    return this;
  }

  on(method: string, path: string | RegExp, answer: Answer | ((call: ApiCall) => Answer)): this {
    this.handlers.unshift((call) => {
      if (call.method !== method) return undefined;
      const matches = typeof path === 'string' ? call.url.pathname === path : path.test(call.url.pathname);
      if (!matches) return undefined;
      return typeof answer === 'function' ? answer(call) : answer;
    });
    return this;
  }

  /** Calls to a path (exact, or by pattern), oldest first. */
  callsTo(method: string, path: string | RegExp): ApiCall[] {
    return this.calls.filter((c) => c.method === method && (typeof path === 'string' ? c.url.pathname === path : path.test(c.url.pathname)));
  }

  install(): void {
    writeIdentityToken('test-token');
    vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
      const call: ApiCall = {
        method: init.method ?? 'GET',
        url: new URL(input, 'http://localhost'),
        headers: { ...(init.headers as Record<string, string>) },
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
        signal: init.signal,
      };
      this.calls.push(call);
      const answer = this.handlers.map((h) => h(call)).find(Boolean) ?? {
        status: 404,
        json: { status: 'Error', errorDetails: { code: 'NOT_FOUND', message: 'Not found.' } },
      };
      if (answer.status === 0) throw new TypeError('Failed to fetch');
      const status = answer.status ?? 200;
      // A 204 (a deletion) has no body at all: a Response refuses even an empty one.
      const body = status === 204 ? null : (answer.stream ?? answer.text ?? (answer.json === undefined ? '' : JSON.stringify(answer.json)));
      return new Response(body, { status, headers: answer.headers ?? { 'content-type': 'application/json' } });
    });
  }
}

export const ok = (data: unknown): Answer => ({ json: { status: 'Success', data } });
export const apiError = (status: number, code: string, message: string, fields?: Record<string, string>): Answer => ({
  status,
  json: { status: 'Error', errorDetails: fields ? { code, message, fields } : { code, message } },
});

const CURRENT_USER: CurrentUser = {
  name: 'owner@biz.example',
  userId: 'usr_1',
  userState: 'complete',
  firstName: 'Owner',
  lastName: 'Person',
  mobileNumber: null,
  enrollNotificationViaEmail: true,
  enrollNotificationViaMobileNumber: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  businesses: [
    {
      businessId: BUSINESS_ID,
      businessName: 'Harbor Music',
      businessState: 'Approved',
      role: 'owner',
      payoutEnabled: 0,
      entities: [{ entityType: 'standard', entityTemplateName: 'Standard' }],
      businessProfile: { logoUrl: null },
    },
  ],
};

/** The signed-in owner as `GET /api/user` answers, with the businesses given (none: before creating one). */
export function signedInUser(businesses: UserBusinessSummary[] = []): CurrentUser {
  return { ...CURRENT_USER, businesses };
}

/** One business of the signed-in owner, as their user record lists it. */
export function ownBusiness(over: Partial<UserBusinessSummary> = {}): UserBusinessSummary {
  return { ...CURRENT_USER.businesses[0]!, ...over };
}

/** The session and the user record as the API answers them again (a save or a notice re-reads them). */
export function answerSignedIn(fake: FakeApi, businesses: UserBusinessSummary[] = []): void {
  fake.on('GET', '/api/auth/get-session', {
    json: { user: { id: 'usr_1', email: CURRENT_USER.name, name: CURRENT_USER.name, emailVerified: true, mustChangePassword: false } },
  });
  fake.on('GET', '/api/user', ok(signedInUser(businesses)));
}

/** The business record as the API answers it for the signed-in business. */
export function answerBusiness(fake: FakeApi, record: Business): void {
  fake.on('GET', `/api/businesses/${BUSINESS_ID}`, ok(record));
}

/** Shows where the app is, so a test can see where a click went. */
function Location() {
  const location = useLocation();
  return <output aria-label="Location">{`${location.pathname}${location.search}`}</output>;
}

/** Where the app is now, as the Location output shows it: a path and its query. */
export const shownLocation = () => screen.getByRole('status', { name: 'Location' }).textContent;

/** A signed-in owner of an Approved business (or the business `options` says), at `path`, with the given routes. */
export function renderAt(
  path: string,
  routes: Record<string, ReactNode>,
  options: { business?: Partial<UserBusinessSummary>; sessionUser?: { twoFactorEnabled?: boolean } } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } } });
  queryClient.setQueryData(sessionKey, {
    id: 'usr_1',
    email: CURRENT_USER.name,
    name: CURRENT_USER.name,
    emailVerified: true,
    mustChangePassword: false,
    ...options.sessionUser,
  });
  queryClient.setQueryData(currentUserKey, {
    ...CURRENT_USER,
    businesses: CURRENT_USER.businesses.map((b) => ({ ...b, ...options.business })),
  } satisfies CurrentUser);
  return render(
    // env="test": no transitions or portals, so what opens is there at once.
    <MantineProvider env="test">
      <Notifications />
      <ModalsProvider>
        <QueryClientProvider client={queryClient}>
          <MemoryRouter initialEntries={[path]}>
            <SessionProvider>
              <Routes>
                {Object.entries(routes).map(([p, element]) => (
                  <Route key={p} path={p} element={element} />
                ))}
              </Routes>
              <Location />
            </SessionProvider>
          </MemoryRouter>
        </QueryClientProvider>
      </ModalsProvider>
    </MantineProvider>,
  );
}

/**
 * The file's FakeApi, fresh for each test: emptied and installed as `fetch` before it, removed
 * after it. Call it once at the top of a test file.
 */
export function fakeApiPerTest(): FakeApi {
  const fake = new FakeApi();
  beforeEach(() => {
    fake.reset().install();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });
  return fake;
}
