import { Link, useParams, useRoutes } from 'react-router';
import { LoadMore } from '../../components/ListStates.tsx';
import { Anchor, Button, Menu, SegmentedControl, Skeleton, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconDownload, IconFileCode } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { E_INVOICE_FORMATS, type Invoice, type InvoiceListItem } from '@berth/contracts';
import { eInvoiceUrl, invoicePdfUrl, useInvoice, useInvoiceList, type InvoiceScope, type InvoiceStatusFilter } from '../../api/invoices.ts';
import { formatDate } from '../../components/formatDate.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { NotFoundPage } from '../NotFoundPage.tsx';
import { PageHeader, Section } from '../PageHeader.tsx';
import classes from '../Pages.module.css';
import accountClasses from '../account/Account.module.css';
import { PaymentInstructions } from './BankTransferInstructions.tsx';
import { CartTotals } from './CartTotals.tsx';
import { InvoiceStatusBadge } from './InvoiceStatusBadge.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { kindLabel, periodLabel } from './periods.ts';
import shopClasses from './Shop.module.css';

/** /account/invoices and /account/invoices/{id}. */
export function InvoicesPage() {
  return useRoutes([
    { index: true, element: <InvoiceListPage /> },
    { path: ':id', element: <InvoiceDetailRoute /> },
    { path: '*', element: <NotFoundPage /> },
  ]);
}

function InvoiceListPage() {
  const { t } = useTranslation();
  usePageTitle(t('invoices.title'));
  const [status, setStatus] = useState<InvoiceStatusFilter>('');
  return (
    <div className={classes.page}>
      <PageHeader title={t('invoices.title')} description={t('invoices.description')} />
      <Section
        id="invoices"
        title={t('invoices.listTitle')}
        aside={<InvoiceStatusControl value={status} onChange={setStatus} options={['', 'unpaid', 'paid']} />}
      >
        <InvoiceTable scope="account" status={status} />
      </Section>
    </div>
  );
}

interface InvoiceTableProps {
  scope: InvoiceScope;
  status: InvoiceStatusFilter;
  /** Admins: the buyer column. */
  showBuyer?: boolean;
  /** Admins: an action per row (e.g. "Mark as paid"). */
  action?: (invoice: InvoiceListItem) => ReactNode;
  /** Admins: the number downloads the PDF instead of opening the buyer's page. */
  pdfHref?: (invoice: InvoiceListItem) => string;
}

/** Invoices with their number, date, total and status, a page at a time. */
/** Which invoices a list shows; `options` in the order the page offers them. */
export function InvoiceStatusControl({
  value,
  onChange,
  options,
}: {
  value: InvoiceStatusFilter;
  onChange: (value: InvoiceStatusFilter) => void;
  options: readonly InvoiceStatusFilter[];
}) {
  const { t } = useTranslation();
  return (
    <SegmentedControl
      aria-label={t('invoices.filter')}
      size="xs"
      value={value}
      onChange={(picked) => {
        onChange(picked as InvoiceStatusFilter);
      }}
      data={options.map((option) => ({ value: option, label: option === '' ? t('invoices.all') : t(`invoices.status.${option}`) }))}
    />
  );
}

export function InvoiceTable({ scope, status, showBuyer = false, action, pdfHref }: InvoiceTableProps) {
  const { t } = useTranslation();
  const list = useInvoiceList(scope, status);
  if (list.isPending) {
    return (
      <Stack gap="sm" aria-busy="true">
        <Skeleton height={44} radius="md" />
        <Skeleton height={44} radius="md" />
      </Stack>
    );
  }
  if (list.isError) return <LoadFailed error={list.error} onRetry={() => void list.refetch()} />;
  const invoices = list.data.pages.flatMap((page) => page.data);
  if (invoices.length === 0) {
    return (
      <Text c="dimmed" fz="sm" py="md" ta="center">
        {t('invoices.none')}
      </Text>
    );
  }
  return (
    <Stack gap="md">
      <table className={accountClasses.table} data-testid="invoice-list">
        <thead>
          <tr>
            <th scope="col">{t('invoices.number')}</th>
            <th scope="col">{t('invoices.date')}</th>
            {showBuyer ? <th scope="col">{t('invoices.buyer')}</th> : null}
            <th scope="col">{t('invoices.statusLabel')}</th>
            <th scope="col" className={shopClasses.numeric}>
              {t('invoices.total')}
            </th>
            {action ? (
              <th scope="col">
                <span className={accountClasses.visuallyHidden}>{t('invoices.actions')}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {invoices.map((invoice) => (
            <tr key={invoice.id} data-testid="invoice-row">
              <td>
                {pdfHref ? (
                  <Anchor href={pdfHref(invoice)} download fw={600} fz="sm">
                    {invoice.number}
                  </Anchor>
                ) : (
                  <Anchor component={Link} to={`/account/invoices/${invoice.id}`} fw={600} fz="sm">
                    {invoice.number}
                  </Anchor>
                )}
                <Text fz="xs" c="dimmed">
                  {t(`invoices.kind.${invoice.kind}`)}
                </Text>
              </td>
              <td data-label={t('invoices.date')}>
                <time dateTime={invoice.issued_at}>{formatDate(invoice.issued_at)}</time>
              </td>
              {showBuyer ? (
                <td data-label={t('invoices.buyer')}>
                  <span className={accountClasses.breakable}>{invoice.buyer.email}</span>
                </td>
              ) : null}
              <td data-label={t('invoices.statusLabel')}>
                <InvoiceStatusBadge status={invoice.status} />
              </td>
              <td data-label={t('invoices.total')} className={shopClasses.numeric}>
                {invoice.gross.formatted}
              </td>
              {action ? <td className={accountClasses.actionCell}>{action(invoice)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
      <LoadMore pages={list} label={t('invoices.more')} />
    </Stack>
  );
}

function InvoiceDetailRoute() {
  const { id } = useParams();
  const value = Number(id);
  if (!Number.isSafeInteger(value) || value <= 0 || value > 2_147_483_647) return <NotFoundPage />;
  return <InvoiceDetailPage id={value} />;
}

function InvoiceDetailPage({ id }: { id: number }) {
  const { t } = useTranslation();
  const invoice = useInvoice('account', id);
  usePageTitle(invoice.data ? t('invoices.detailTitle', { number: invoice.data.number }) : t('invoices.title'));
  if (invoice.error?.status === 404) return <NotFoundPage />;
  return (
    <div className={classes.page}>
      {invoice.isPending ? (
        <Stack gap="md" aria-busy="true">
          <Skeleton height={32} width="50%" radius="md" />
          <Skeleton height={260} radius="lg" />
        </Stack>
      ) : invoice.isError ? (
        <>
          <PageHeader title={t('invoices.title')} />
          <LoadFailed error={invoice.error} onRetry={() => void invoice.refetch()} />
        </>
      ) : (
        <InvoiceDetail invoice={invoice.data} />
      )}
    </div>
  );
}

/** The invoice as EN 16931 XML: UBL, XRechnung (UBL) or CII; the PDF itself carries Factur-X. */
export function EInvoiceMenu({ scope, id }: { scope: InvoiceScope; id: number }) {
  const { t } = useTranslation();
  return (
    <Menu
      position="bottom-end"
      shadow="md"
      radius="md"
      withinPortal
      // Its focusable placeholder is not a menu item (axe: aria-required-children).
      withInitialFocusPlaceholder={false}
    >
      <Menu.Target>
        <Button variant="default" leftSection={<IconFileCode size={16} aria-hidden />} data-testid="e-invoice">
          {t('invoices.eInvoice')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {E_INVOICE_FORMATS.map((format) => (
          <Menu.Item key={format} component="a" href={eInvoiceUrl(scope, id, format)} download data-testid={`e-invoice-${format}`}>
            {t(`invoices.eInvoiceFormats.${format}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

function InvoiceDetail({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader
        title={t('invoices.detailTitle', { number: invoice.number })}
        description={t('invoices.detailDescription', { seller: invoice.seller.title })}
        actions={
          <>
            <Button component={Link} to="/account/invoices" variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />}>
              {t('invoices.back')}
            </Button>
            <Button
              component="a"
              href={invoicePdfUrl('account', invoice.id)}
              download
              leftSection={<IconDownload size={16} aria-hidden />}
              data-testid="invoice-pdf"
            >
              {t('invoices.pdf')}
            </Button>
            {invoice.e_invoice ? <EInvoiceMenu scope="account" id={invoice.id} /> : null}
          </>
        }
      />
      {invoice.status === 'unpaid' && invoice.instructions ? (
        <Section id="how-to-pay" title={t('invoices.howToPay')} description={t('invoices.howToPayHint')}>
          <PaymentInstructions instructions={invoice.instructions} />
        </Section>
      ) : null}
      <Section id="invoice" title={t('invoices.summary')} aside={<InvoiceStatusBadge status={invoice.status} />}>
        <dl className={classes.facts}>
          <div className={classes.fact}>
            <dt>{t('invoices.issued')}</dt>
            <dd>{formatDate(invoice.issued_at)}</dd>
          </div>
          <div className={classes.fact}>
            <dt>{t('invoices.paid')}</dt>
            <dd>{invoice.paid_at ? formatDate(invoice.paid_at) : '—'}</dd>
          </div>
          <div className={classes.fact}>
            <dt>{t('invoices.paymentMethod')}</dt>
            <dd>{t(`shop.checkout.provider.${invoice.payment_provider}`)}</dd>
          </div>
          <div className={classes.fact}>
            <dt>{t('invoices.reference')}</dt>
            <dd className={accountClasses.mono}>{invoice.payment_reference}</dd>
          </div>
        </dl>
        <table className={accountClasses.table} data-testid="invoice-lines">
          <thead>
            <tr>
              <th scope="col">{t('invoices.item')}</th>
              <th scope="col">{t('invoices.period')}</th>
              <th scope="col" className={shopClasses.numeric}>
                {t('invoices.net')}
              </th>
            </tr>
          </thead>
          <tbody>
            {invoice.lines.map((line, index) => (
              <tr key={index}>
                <td>
                  <Text fw={600} fz="sm" className={accountClasses.breakable}>
                    {line.title}
                  </Text>
                  <Text fz="xs" c="dimmed">
                    {kindLabel(t, line.kind)}
                  </Text>
                </td>
                <td data-label={t('invoices.period')}>{line.period_months ? periodLabel(t, line.period_months) : '—'}</td>
                <td data-label={t('invoices.net')} className={shopClasses.numeric}>
                  {line.net.formatted}
                  {line.discount.amount !== 0 ? (
                    <Text fz="xs" className={shopClasses.positive}>
                      {t('shop.cart.rowDiscount', { amount: line.discount.formatted })}
                    </Text>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <CartTotals totals={invoice.totals} vatRate={invoice.vat_rate} promo={invoice.promo_code ? { code: invoice.promo_code } : null} />
      </Section>
    </>
  );
}
