import { useState } from 'react';
import { Link } from 'react-router';
import { ActionIcon, Badge, Button, Group, Skeleton, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconShoppingCart, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { CheckoutResult, ShopCart, ShopCartRow } from '@berth/contracts';
import { useCartPeriod, useCartRemove, useShopCart } from '../../api/shop.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { describeError } from '../../forms/validation.ts';
import { PageHeader, Section } from '../PageHeader.tsx';
import classes from '../Pages.module.css';
import accountClasses from '../account/Account.module.css';
import { CartTotals } from './CartTotals.tsx';
import { CheckoutPanel } from './CheckoutPanel.tsx';
import { CheckoutResultView } from './CheckoutResultView.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { PeriodSelect } from './PeriodSelect.tsx';
import { PromoCodeForm } from './PromoCodeForm.tsx';
import { kindLabel } from './periods.ts';
import shopClasses from './Shop.module.css';

/** /shop/cart: the server-side cart, a promo code, the totals and checkout; then the result. */
export function CartPage() {
  const { t } = useTranslation();
  usePageTitle(t('shop.cart.title'));
  const cart = useShopCart();
  const [result, setResult] = useState<CheckoutResult | null>(null);

  if (result) return <CheckoutResultView result={result} />;

  return (
    <div className={classes.page}>
      <PageHeader title={t('shop.cart.title')} description={t('shop.cart.description')} />
      {cart.isPending ? (
        <Stack gap="md" aria-busy="true">
          <Skeleton height={200} radius="lg" />
        </Stack>
      ) : cart.isError ? (
        <LoadFailed error={cart.error} onRetry={() => void cart.refetch()} />
      ) : cart.data.rows.length === 0 ? (
        <EmptyCart />
      ) : (
        <div className={shopClasses.cartLayout}>
          <Stack gap="lg">
            <CartRows cart={cart.data} />
            <Section id="promo" title={t('shop.promo.title')}>
              <PromoCodeForm promo={cart.data.promo} />
            </Section>
          </Stack>
          <Section id="summary" title={t('shop.cart.summary')}>
            <CartTotals totals={cart.data.totals} vatRate={cart.data.vat_rate} promo={cart.data.promo} />
            <CheckoutPanel
              total={cart.data.totals.gross.formatted}
              blocked={cart.data.rows.some((row) => !row.available)}
              onDone={setResult}
            />
          </Section>
        </div>
      )}
    </div>
  );
}

function EmptyCart() {
  const { t } = useTranslation();
  return (
    <section className={classes.section} aria-labelledby="empty-cart">
      <div className={shopClasses.empty}>
        <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
          <IconShoppingCart size={28} stroke={1.6} />
        </ThemeIcon>
        <Text fw={650} fz="lg" id="empty-cart" component="h2">
          {t('shop.cart.empty')}
        </Text>
        <Text c="dimmed" fz="sm" maw={420}>
          {t('shop.cart.emptyHint')}
        </Text>
        <Button component={Link} to="/shop">
          {t('shop.cart.browse')}
        </Button>
      </div>
    </section>
  );
}

function CartRows({ cart }: { cart: ShopCart }) {
  const { t } = useTranslation();
  const period = useCartPeriod();
  const remove = useCartRemove();
  const failure = period.error ?? remove.error;
  return (
    <Section id="cart-rows" title={t('shop.cart.items', { count: cart.rows.length })}>
      {failure ? (
        <FormAlert
          kind="error"
          onClose={() => {
            period.reset();
            remove.reset();
          }}
        >
          {describeError(failure, t)}
        </FormAlert>
      ) : null}
      <table className={accountClasses.table} data-testid="cart-rows">
        <thead>
          <tr>
            <th scope="col">{t('shop.cart.product')}</th>
            <th scope="col">{t('shop.cart.period')}</th>
            <th scope="col" className={shopClasses.numeric}>
              {t('shop.cart.price')}
            </th>
            <th scope="col">
              <span className={accountClasses.visuallyHidden}>{t('shop.cart.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {cart.rows.map((row) => (
            <CartRowView
              key={row.id}
              row={row}
              busy={(period.isPending && period.variables.id === row.id) || (remove.isPending && remove.variables === row.id)}
              onPeriod={(months) => {
                period.mutate({ id: row.id, period: months });
              }}
              onRemove={() => {
                remove.mutate(row.id);
              }}
            />
          ))}
        </tbody>
      </table>
    </Section>
  );
}

interface CartRowViewProps {
  row: ShopCartRow;
  busy: boolean;
  onPeriod: (months: number) => void;
  onRemove: () => void;
}

function CartRowView({ row, busy, onPeriod, onRemove }: CartRowViewProps) {
  const { t } = useTranslation();
  const name = row.domain_text ?? row.title;
  return (
    <tr data-testid="cart-row">
      <td>
        <Stack gap={2}>
          <Text fw={600} fz="sm" className={accountClasses.breakable}>
            {name}
          </Text>
          <Group gap={6}>
            <Text fz="xs" c="dimmed">
              {kindLabel(t, row.kind)}
            </Text>
            {row.available ? null : (
              <Badge color="red" variant="light" size="sm" radius="sm" className={classes.badge}>
                {t('shop.cart.unavailable')}
              </Badge>
            )}
          </Group>
        </Stack>
      </td>
      <td data-label={t('shop.cart.period')}>
        <PeriodSelect
          label={t('shop.cart.periodFor', { name })}
          periods={row.periods}
          value={row.period_months}
          disabled={busy || row.periods.length < 2}
          onChange={onPeriod}
        />
      </td>
      <td data-label={t('shop.cart.price')} className={shopClasses.numeric}>
        {/* Net like the totals' lines below (subtotal − discount = net, + VAT = total), so they add up. */}
        <Text fw={600} fz="sm" data-testid="cart-row-net">
          {row.price.net.formatted}
        </Text>
        {row.discount.amount !== 0 ? (
          <Text fz="xs" className={shopClasses.positive} data-testid="cart-row-discount">
            {t('shop.cart.rowDiscount', { amount: row.discount.formatted.replace(/^-|^−/, '') })}
          </Text>
        ) : null}
        <Text fz="xs" c="dimmed">
          {t('shop.cart.grossShort', { gross: row.price.gross.formatted })}
        </Text>
      </td>
      <td className={accountClasses.actionCell}>
        <Tooltip label={t('shop.cart.remove')}>
          <ActionIcon variant="subtle" color="red" aria-label={t('shop.cart.removeNamed', { name })} loading={busy} onClick={onRemove}>
            <IconTrash size={16} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </td>
    </tr>
  );
}
