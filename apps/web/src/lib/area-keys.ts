import { AREA } from '@tay/contract';
import { areaKey } from './endpoint-client';

/*
 * Every cached call of an area for a business (`areaKey`), by the area's name (`AREA`): for the
 * area's own screens and for what marks areas stale (live updates, `app/live-updates.tsx`),
 * without importing the areas' endpoints and their schemas into the portal's frame.
 */

export const businessKey = (id: string) => areaKey(AREA.businesses, id);
export const payersKey = (businessId: string | undefined) => areaKey(AREA.payers, businessId);
export const teamKey = (businessId: string | undefined) => areaKey(AREA.team, businessId);
export const requestsKey = (businessId: string | undefined) => areaKey(AREA.paymentRequests, businessId);
export const invoicesKey = (businessId: string | undefined) => areaKey(AREA.invoices, businessId);
export const qrCodesKey = (businessId: string | undefined) => areaKey(AREA.qrCodes, businessId);
export const payoutsKey = (businessId: string | undefined) => areaKey(AREA.payouts, businessId);
export const receiversKey = (businessId: string | undefined) => areaKey(AREA.receivers, businessId);
export const eventsKey = (businessId: string | undefined) => areaKey(AREA.events, businessId);
export const batchesKey = (businessId: string | undefined) => areaKey(AREA.batches, businessId);
export const reportsKey = (businessId: string | undefined) => areaKey(AREA.reports, businessId);
export const studentsKey = (businessId: string | undefined) => areaKey(AREA.students, businessId);
export const programsKey = (businessId: string | undefined) => areaKey(AREA.programs, businessId);
export const billingCyclesKey = (businessId: string | undefined) => areaKey(AREA.billingCycles, businessId);
export const patientsKey = (businessId: string | undefined) => areaKey(AREA.patients, businessId);
export const studentBillingKey = (businessId: string | undefined) => areaKey(AREA.studentBilling, businessId);
