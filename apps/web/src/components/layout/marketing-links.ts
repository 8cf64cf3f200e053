import { marketingUrl } from '../../config/public-config';

/** Spec §2: the anonymous header's external links, in order. */
export const MARKETING_LINKS = [
  { label: 'Our Platform', href: marketingUrl('platform') },
  { label: 'How it works', href: marketingUrl('how-it-works') },
  { label: 'Why Tay', href: marketingUrl('why-tay') },
  { label: 'Resources', href: marketingUrl('resources') },
  { label: 'About Us', href: marketingUrl('about-us') },
] as const;

/** Spec §2: the footer's links. */
export const FOOTER_LINKS = [
  { label: 'Business FAQs', href: marketingUrl('faq/business') },
  { label: 'Customers FAQs', href: marketingUrl('faq/customers') },
  { label: 'About Us', href: marketingUrl('about-us') },
] as const;
