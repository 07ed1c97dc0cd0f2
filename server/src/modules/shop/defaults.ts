/**
 * What a tenant sells out of the box (net prices in cents, EUR, 21 % VAT, 10 % partner commission):
 * host admins change it under /system/shop. Loaded the first time a tenant's shop is used.
 */
export const DEFAULT_PLANS = [
  {
    title: 'Starter',
    description: '1 website, 10 GB SSD, 5 mailboxes, free SSL',
    monthly_price: 390,
    yearly_price: 3_900,
    max_domains: 1,
    max_mailboxes: 5,
    disk_gb: 10,
    php_workers: 3,
    php_memory_mb: 128,
  },
  {
    title: 'Business',
    description: '10 websites, 50 GB SSD, 50 mailboxes, daily backups',
    monthly_price: 890,
    yearly_price: 8_900,
    max_domains: 10,
    max_mailboxes: 50,
    disk_gb: 50,
    php_workers: 8,
    php_memory_mb: 256,
  },
  {
    title: 'Pro',
    description: 'Unlimited websites, 200 GB NVMe, unlimited mailboxes, staging',
    monthly_price: 1_790,
    yearly_price: 17_900,
    max_domains: null,
    max_mailboxes: null,
    disk_gb: 200,
    php_workers: 20,
    php_memory_mb: 512,
  },
] as const;

export const DEFAULT_TLDS = [
  { tld: 'com', register_price: 1_290, renew_price: 1_490, transfer_price: 1_290 },
  { tld: 'net', register_price: 1_490, renew_price: 1_690, transfer_price: 1_490 },
  { tld: 'org', register_price: 1_390, renew_price: 1_590, transfer_price: 1_390 },
  { tld: 'eu', register_price: 690, renew_price: 790, transfer_price: 690 },
  { tld: 'de', register_price: 790, renew_price: 890, transfer_price: 790 },
  { tld: 'cz', register_price: 890, renew_price: 990, transfer_price: 890 },
  { tld: 'io', register_price: 3_990, renew_price: 4_490, transfer_price: 3_990 },
] as const;
