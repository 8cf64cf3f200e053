import {
  batchEndpoints,
  billingCycleEndpoints,
  businessEndpoints,
  eventEndpoints,
  invoiceEndpoints,
  patientEndpoints,
  payerEndpoints,
  paymentRequestEndpoints,
  payoutEndpoints,
  programEndpoints,
  qrCodeEndpoints,
  receiverEndpoints,
  reportEndpoints,
  studentEndpoints,
  studentRequestEndpoints,
  teamEndpoints,
  type EndpointSpec,
} from '@tay/contract';
import { describe, expect, it } from 'vitest';
import * as keys from './area-keys';
import { endpointKey } from './endpoint-client';

/** Each area key, beside the endpoints whose cached calls it must cover. */
const AREAS: [keyof typeof keys, Record<string, EndpointSpec>][] = [
  ['businessKey', businessEndpoints],
  ['payersKey', payerEndpoints],
  ['teamKey', teamEndpoints],
  ['requestsKey', paymentRequestEndpoints],
  ['invoicesKey', invoiceEndpoints],
  ['qrCodesKey', qrCodeEndpoints],
  ['payoutsKey', payoutEndpoints],
  ['receiversKey', receiverEndpoints],
  ['eventsKey', eventEndpoints],
  ['batchesKey', batchEndpoints],
  ['reportsKey', reportEndpoints],
  ['studentsKey', studentEndpoints],
  ['programsKey', programEndpoints],
  ['billingCyclesKey', billingCycleEndpoints],
  ['patientsKey', patientEndpoints],
  ['studentBillingKey', studentRequestEndpoints],
];

describe('area keys', () => {
  it.each(AREAS)('%s begins the key of every cached call of its area', (name, endpoints) => {
    const areaKey = keys[name]('biz_1');
    const list = Object.values(endpoints).find((endpoint) => endpoint.method === 'GET')!;
    expect(endpointKey(list, { params: { id: 'biz_1' } } as never).slice(0, 2)).toEqual(areaKey);
  });
});
