import type { CodeLabel } from '@tay/contract';

/**
 * The IRS subsections under which an organization is tax-exempt (GET /api/nonProfitCode), with
 * the organization types of IRS Publication 557. 501(c)(20) and 501(c)(24) are left out: the
 * first was repealed and no organization is recognized under the second any more.
 */
export const NON_PROFIT_CODES: readonly CodeLabel[] = [
  { code: '501(c)(1)', label: '501(c)(1) Corporations organized under an Act of Congress' },
  { code: '501(c)(2)', label: '501(c)(2) Title-holding corporations for exempt organizations' },
  {
    code: '501(c)(3)',
    label: '501(c)(3) Religious, educational, charitable, scientific, literary, public-safety testing, amateur sports and anti-cruelty organizations',
  },
  { code: '501(c)(4)', label: '501(c)(4) Civic leagues, social welfare organizations and local associations of employees' },
  { code: '501(c)(5)', label: '501(c)(5) Labor, agricultural and horticultural organizations' },
  { code: '501(c)(6)', label: '501(c)(6) Business leagues, chambers of commerce, real estate boards and trade associations' },
  { code: '501(c)(7)', label: '501(c)(7) Social and recreational clubs' },
  { code: '501(c)(8)', label: '501(c)(8) Fraternal beneficiary societies and associations' },
  { code: '501(c)(9)', label: "501(c)(9) Voluntary employees' beneficiary associations" },
  { code: '501(c)(10)', label: '501(c)(10) Domestic fraternal societies and associations' },
  { code: '501(c)(11)', label: "501(c)(11) Teachers' retirement fund associations" },
  {
    code: '501(c)(12)',
    label: '501(c)(12) Benevolent life insurance associations, mutual ditch or irrigation companies, mutual or cooperative telephone companies',
  },
  { code: '501(c)(13)', label: '501(c)(13) Cemetery companies' },
  { code: '501(c)(14)', label: '501(c)(14) State-chartered credit unions and mutual reserve funds' },
  { code: '501(c)(15)', label: '501(c)(15) Mutual insurance companies or associations' },
  { code: '501(c)(16)', label: '501(c)(16) Cooperative organizations to finance crop operations' },
  { code: '501(c)(17)', label: '501(c)(17) Supplemental unemployment benefit trusts' },
  { code: '501(c)(18)', label: '501(c)(18) Employee-funded pension trusts (created before June 25, 1959)' },
  { code: '501(c)(19)', label: '501(c)(19) Posts or organizations of past or present members of the armed forces' },
  { code: '501(c)(21)', label: '501(c)(21) Black lung benefit trusts' },
  { code: '501(c)(22)', label: '501(c)(22) Withdrawal liability payment funds' },
  { code: '501(c)(23)', label: '501(c)(23) Veterans organizations (created before 1880)' },
  { code: '501(c)(25)', label: '501(c)(25) Title-holding corporations or trusts with multiple parents' },
  { code: '501(c)(26)', label: '501(c)(26) State-sponsored organizations providing health coverage for high-risk individuals' },
  { code: '501(c)(27)', label: "501(c)(27) State-sponsored workers' compensation reinsurance organizations" },
  { code: '501(c)(28)', label: '501(c)(28) National Railroad Retirement Investment Trust' },
  { code: '501(c)(29)', label: '501(c)(29) Qualified nonprofit health insurance issuers (CO-OPs)' },
  { code: '501(d)', label: '501(d) Religious and apostolic associations' },
  { code: '501(e)', label: '501(e) Cooperative hospital service organizations' },
  { code: '501(f)', label: '501(f) Cooperative service organizations of operating educational organizations' },
  { code: '501(k)', label: '501(k) Child care organizations' },
  { code: '501(n)', label: '501(n) Charitable risk pools' },
];

const CODES = new Set(NON_PROFIT_CODES.map((c) => c.code));

export function isKnownNonProfitCode(code: string): boolean {
  return CODES.has(code);
}
