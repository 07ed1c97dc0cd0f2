import { useState } from 'react';
import { Link } from 'react-router';
import { Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconShoppingCartPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DOMAIN_PERIODS, vatOf, type CheckoutResult, type Domain } from '@berth/contracts';
import { useCartAdd, useCatalogue } from '../../api/shop.ts';
import { formatDate } from '../../components/formatDate.ts';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { describeError } from '../../forms/validation.ts';
import { translateServerText } from '../../i18n/i18n.ts';
import { DomainPageFrame, useDomainIdParam } from '../host/domain-users/DomainPageFrame.tsx';
import { Section } from '../PageHeader.tsx';
import classes from '../Pages.module.css';
import { CheckoutPanel } from './CheckoutPanel.tsx';
import { CheckoutResultView } from './CheckoutResultView.tsx';
import { formatMoney } from './money.ts';
import { PeriodSelect } from './PeriodSelect.tsx';

/** /host/domain/{id}/renew: pick a period, then put the renewal in the cart or pay for it at once. */
export function DomainRenewPage() {
  const { t } = useTranslation();
  const domainId = useDomainIdParam();
  const [result, setResult] = useState<CheckoutResult | null>(null);
  if (result) return <CheckoutResultView result={result} />;
  return (
    <DomainPageFrame
      domainId={domainId}
      pageName={t('shop.renew.title')}
      title={(domain) => t('shop.renew.heading', { domain })}
      description={t('shop.renew.description')}
    >
      {(domain) => <RenewForm domain={domain} onPaid={setResult} />}
    </DomainPageFrame>
  );
}

/** The TLD as the catalogue lists it: the longest sold suffix of the name ("co.uk" before "uk"). */
function tldOf(name: string, sold: readonly string[]): string | undefined {
  return [...sold].sort((a, b) => b.length - a.length).find((tld) => name.endsWith(`.${tld}`));
}

function RenewForm({ domain, onPaid }: { domain: Domain; onPaid: (result: CheckoutResult) => void }) {
  const { t } = useTranslation();
  const catalogue = useCatalogue();
  const add = useCartAdd();
  const [months, setMonths] = useState<number>(12);

  const tld = catalogue.data
    ? tldOf(
        domain.name,
        catalogue.data.tlds.map((item) => item.tld),
      )
    : undefined;
  const price = catalogue.data?.tlds.find((item) => item.tld === tld)?.renew;
  const years = months / 12;
  // What the invoice will say: VAT on the period's net, rounded as the server rounds it.
  const net = price ? price.net.amount * years : 0;
  const due =
    catalogue.data && price ? formatMoney(net + vatOf(net, Math.round(catalogue.data.vat_rate * 100)), catalogue.data.currency) : '';

  return (
    <Section id="renewal" title={t('shop.renew.section')}>
      <dl className={classes.facts}>
        <div className={classes.fact}>
          <dt>{t('shop.renew.expires')}</dt>
          <dd>{domain.expire_at ? formatDate(domain.expire_at) : t('shop.renew.noExpiry')}</dd>
        </div>
        <div className={classes.fact}>
          <dt>{t('shop.renew.pricePerYear')}</dt>
          <dd>{catalogue.isPending ? <Skeleton height={16} width={80} /> : price ? price.gross.formatted : t('shop.renew.notSold')}</dd>
        </div>
      </dl>
      {add.isSuccess ? (
        <FormAlert kind="success" onClose={() => add.reset()}>
          <Group gap="xs" wrap="wrap">
            <span>{translateServerText(add.data.message ?? t('shop.added'))}</span>
            <Link to="/shop/cart">{t('shop.goToCart')}</Link>
          </Group>
        </FormAlert>
      ) : null}
      {add.isError ? <FormAlert kind="error">{describeError(add.error, t)}</FormAlert> : null}
      {catalogue.isError ? <FormAlert kind="error">{describeError(catalogue.error, t)}</FormAlert> : null}
      <Stack gap="md" className={classes.formNarrow}>
        <PeriodSelect visibleLabel label={t('shop.renew.period')} periods={DOMAIN_PERIODS} value={months} onChange={setMonths} />
        {price ? (
          <Text fz="sm" c="dimmed">
            {t('shop.renew.estimate', { count: years, total: due, net: price.net.formatted })}
          </Text>
        ) : null}
        <Group>
          <Button
            leftSection={<IconShoppingCartPlus size={16} aria-hidden />}
            loading={add.isPending}
            disabled={!price}
            onClick={() => {
              add.mutate({ kind: 'domain_renew', domain_id: domain.id, period_months: months });
            }}
          >
            {t('shop.renew.add')}
          </Button>
        </Group>
      </Stack>
      {price ? (
        <Stack gap="sm" className={classes.formNarrow}>
          <Text fw={600} fz="sm" component="h3">
            {t('shop.renew.nowHeading')}
          </Text>
          <Text fz="sm" c="dimmed">
            {t('shop.renew.nowHint')}
          </Text>
          <CheckoutPanel
            key={months}
            total={due}
            item={{ kind: 'domain_renew', domain_id: domain.id, period_months: months }}
            onDone={onPaid}
          />
        </Stack>
      ) : null}
    </Section>
  );
}
