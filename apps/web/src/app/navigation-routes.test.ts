import { describe, expect, it } from 'vitest';
import { navigationSections } from '../components/layout/navigation';
import { businessRoutes } from './business-routes';

/** Every path the business area routes, as `/business/<path>`. */
function businessPaths(): Set<string> {
  return new Set(businessRoutes.map((r) => `/business/${r.path}`));
}

describe('the navigation leads to pages', () => {
  it('every Payments In item of the student template has its route (none falls to the not-found page)', () => {
    const own = businessPaths();
    for (const item of navigationSections('student', false)[0]!.items) expect(own, item.label).toContain(item.to.split('?')[0]);
  });
});
