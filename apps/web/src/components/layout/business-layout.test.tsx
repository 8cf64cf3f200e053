import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAt, shownLocation } from '../../test/page-harness';
import { BusinessLayout } from './business-layout';

// The whole shell with menus: slower than the default 5 s on a busy machine.
// jsdom matches no media query: the screen is a phone's, narrower than every breakpoint.
const at = (path: string) => renderAt(path, { '/business/*': <BusinessLayout /> });
const navigation = () => screen.queryByRole('navigation', { name: 'Business navigation' });
const burger = () => screen.getByRole('button', { name: 'Menu' });

describe('the business navigation on a phone', () => {
  it('is hidden behind the burger, so the page opens on its content', () => {
    at('/business/home');
    expect(navigation()).toBeNull();
    expect(burger()).toHaveAttribute('aria-expanded', 'false');
    expect(burger()).toHaveAttribute('aria-controls', 'business-navigation');
    expect(screen.getByRole('main')).not.toHaveAttribute('inert');
  });

  it('opens from the burger over an inert page, and closes when a link in it is followed', async () => {
    at('/business/home');
    await userEvent.click(burger());
    const nav = navigation()!;
    expect(nav).not.toBeNull();
    expect(burger()).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('main', { hidden: true })).toHaveAttribute('inert');
    // The header's links are in it too: there is no room for them in the header.
    expect(within(nav).getByRole('link', { name: 'Payments In' })).toBeInTheDocument();
    await userEvent.click(within(nav).getByRole('link', { name: 'Manage Payers' }));
    expect(shownLocation()).toBe('/business/payment/payers');
    expect(navigation()).toBeNull();
    expect(burger()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('main')).not.toHaveAttribute('inert');
  });

  it('closes on Escape, from the burger or from inside, and gives the focus back to the burger', async () => {
    at('/business/home');
    await userEvent.click(burger());
    await userEvent.keyboard('{Escape}');
    expect(navigation()).toBeNull();
    await userEvent.click(burger());
    within(navigation()!).getByRole('link', { name: 'Manage Payers' }).focus();
    await userEvent.keyboard('{Escape}');
    expect(navigation()).toBeNull();
    expect(burger()).toHaveFocus();
    expect(shownLocation()).toBe('/business/home');
  });
});

describe('the person’s menu', () => {
  it('opens from their greeting and leads to the profile settings (password, notifications), their profile, and Logout', async () => {
    at('/business/home');
    await userEvent.click(screen.getByRole('button', { name: 'Hi, Owner: your account' }));
    expect(await screen.findByRole('menuitem', { name: 'Profile settings' })).toHaveAttribute('href', '/business/settings/profile');
    expect(screen.getByRole('menuitem', { name: 'Your profile' })).toHaveAttribute('href', '/business/user/profile');
    expect(screen.getByRole('menuitem', { name: 'Logout' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Profile settings' }));
    expect(shownLocation()).toBe('/business/settings/profile');
  });
});

describe('the template a business opens on (docs/product.md §1, §9)', () => {
  const school = { entities: [{ entityType: 'student', entityTemplateName: 'School' }] };
  const templateIn = (nav: HTMLElement) => within(nav).getByRole('combobox', { name: 'Template' });

  it('a School business opened for the first time on a device opens on the School menu, kept under "template"', async () => {
    renderAt('/business/home', { '/business/*': <BusinessLayout /> }, { business: school });
    await userEvent.click(burger());
    const nav = navigation()!;
    expect(templateIn(nav)).toHaveValue('School');
    expect(within(nav).getByRole('link', { name: 'Manage Students' })).toBeInTheDocument();
    expect(window.localStorage.getItem('template')).toBe('student');
  });

  it('a switch made on this device stands: the next load does not put School back', async () => {
    const first = renderAt('/business/home', { '/business/*': <BusinessLayout /> }, { business: school });
    await userEvent.click(burger());
    await userEvent.click(templateIn(navigation()!));
    await userEvent.click(await screen.findByRole('option', { name: 'Standard' }));
    expect(window.localStorage.getItem('template')).toBe('standard');
    first.unmount();

    renderAt('/business/home', { '/business/*': <BusinessLayout /> }, { business: school });
    await userEvent.click(burger());
    const nav = navigation()!;
    expect(templateIn(nav)).toHaveValue('Standard');
    expect(within(nav).queryByRole('link', { name: 'Manage Students' })).toBeNull();
    expect(within(nav).getByRole('link', { name: 'Manage Invoices' })).toBeInTheDocument();
  });
});
