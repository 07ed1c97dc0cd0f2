import { Link } from 'react-router';
import { Button, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCircleCheck, IconClockHour4, IconFileInvoice, IconWorld } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { CheckoutResult } from '@berth/contracts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { PageHeader, Section } from '../PageHeader.tsx';
import classes from '../Pages.module.css';
import { PaymentInstructions } from './BankTransferInstructions.tsx';

/** After checkout: the order is complete, or how to pay for it. */
export function CheckoutResultView({ result }: { result: CheckoutResult }) {
  const { t } = useTranslation();
  const paid = result.status === 'paid';
  const title = paid ? t('shop.result.paidTitle') : t('shop.result.pendingTitle');
  usePageTitle(title);
  const invoice = result.invoice;
  const hasDomains = invoice.lines.some((line) => line.kind.startsWith('domain_'));

  return (
    <div className={classes.page}>
      <PageHeader title={title} description={t('shop.result.invoice', { number: invoice.number, total: invoice.gross.formatted })} />
      <Section
        id="checkout-result"
        title={paid ? t('shop.result.paidHeading') : t('shop.result.pendingHeading')}
        aside={
          <ThemeIcon size={44} radius="xl" variant="light" color={paid ? 'green' : 'yellow'} aria-hidden>
            {paid ? <IconCircleCheck size={26} /> : <IconClockHour4 size={26} />}
          </ThemeIcon>
        }
      >
        <Text fz="sm">{paid ? t('shop.result.paidBody') : t('shop.result.pendingBody')}</Text>
        {!paid && invoice.instructions ? (
          <Stack gap="xs">
            <PaymentInstructions instructions={invoice.instructions} />
          </Stack>
        ) : null}
        <Group gap="sm">
          <Button component={Link} to={`/account/invoices/${invoice.id}`} leftSection={<IconFileInvoice size={16} aria-hidden />}>
            {t('shop.result.viewInvoice')}
          </Button>
          {paid && hasDomains ? (
            <Button component={Link} to="/host/domain" variant="default" leftSection={<IconWorld size={16} aria-hidden />}>
              {t('shop.result.myDomains')}
            </Button>
          ) : null}
          <Button component={Link} to="/shop" variant="default">
            {t('shop.result.continue')}
          </Button>
        </Group>
      </Section>
    </div>
  );
}
