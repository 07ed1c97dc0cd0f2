import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Badge, Button, Group, SegmentedControl, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch, IconShoppingCartPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PlanLimits } from './PlanLimits.tsx';
import type { CartAddPayload, Catalogue, DomainCheck, HostingPlan } from '@berth/contracts';
import { useCartAdd, useCatalogue, useDomainCheck } from '../../api/shop.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { describeError } from '../../forms/validation.ts';
import { translateServerText } from '../../i18n/i18n.ts';
import { PageHeader, Section } from '../PageHeader.tsx';
import classes from '../Pages.module.css';
import accountClasses from '../account/Account.module.css';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import shopClasses from './Shop.module.css';

/** /shop: domain search with the TLD's price, the TLD price list and the hosting plans. */
export function CataloguePage() {
  const { t } = useTranslation();
  usePageTitle(t('shop.title'));
  const catalogue = useCatalogue();
  const add = useCartAdd();

  const addToCart = (payload: CartAddPayload) => {
    add.mutate(payload);
  };

  return (
    <div className={classes.page}>
      <PageHeader
        title={t('shop.title')}
        description={t('shop.description')}
        actions={
          <Button component={Link} to="/shop/cart" variant="default" leftSection={<IconShoppingCartPlus size={16} aria-hidden />}>
            {t('shop.goToCart')}
          </Button>
        }
      />
      {add.isSuccess ? (
        <FormAlert kind="success" onClose={() => add.reset()}>
          <Group gap="xs" wrap="wrap">
            <span>{translateServerText(add.data.message ?? t('shop.added'))}</span>
            <Link to="/shop/cart">{t('shop.goToCart')}</Link>
          </Group>
        </FormAlert>
      ) : null}
      {add.isError ? (
        <FormAlert kind="error" onClose={() => add.reset()}>
          {describeError(add.error, t)}
        </FormAlert>
      ) : null}

      <DomainSearch onAdd={addToCart} adding={add.isPending} />

      {catalogue.isPending ? (
        <Stack gap="md" aria-busy="true">
          <Skeleton height={160} radius="lg" />
          <Skeleton height={220} radius="lg" />
        </Stack>
      ) : catalogue.isError ? (
        <LoadFailed error={catalogue.error} onRetry={() => void catalogue.refetch()} />
      ) : (
        <>
          <HostingPlans catalogue={catalogue.data} onAdd={addToCart} adding={add.isPending} />
          <TldPrices catalogue={catalogue.data} />
        </>
      )}
    </div>
  );
}

interface AddProps {
  onAdd: (payload: CartAddPayload) => void;
  adding: boolean;
}

function DomainSearch({ onAdd, adding }: AddProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [name, setName] = useState('');
  const check = useDomainCheck(name);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setName(text.trim());
  };

  return (
    <Section id="domain-search" title={t('shop.domainSearch.title')} description={t('shop.domainSearch.description')}>
      <form onSubmit={submit} role="search" aria-label={t('shop.domainSearch.title')}>
        <div className={shopClasses.searchRow}>
          <TextInput
            label={t('shop.domainSearch.label')}
            placeholder="example.com"
            value={text}
            onChange={(event) => {
              setText(event.currentTarget.value);
            }}
            autoComplete="off"
            spellCheck={false}
            error={check.isError ? describeError(check.error, t) : undefined}
          />
          <Button type="submit" leftSection={<IconSearch size={16} aria-hidden />} loading={check.isFetching}>
            {t('shop.domainSearch.check')}
          </Button>
        </div>
      </form>
      {check.data ? <DomainResult check={check.data} onAdd={onAdd} adding={adding} /> : null}
    </Section>
  );
}

function DomainResult({ check, onAdd, adding }: { check: DomainCheck } & AddProps) {
  const { t } = useTranslation();
  const price = check.price;
  return (
    <div
      className={`${shopClasses.result} ${check.available ? shopClasses.resultAvailable : ''}`}
      data-testid="domain-result"
      role="status"
    >
      <Stack gap={4}>
        <Group gap="sm" wrap="wrap">
          <span className={shopClasses.domainName}>{check.text}</span>
          <Badge color={check.available ? 'green' : 'gray'} variant="light" radius="sm" className={classes.badge}>
            {check.available ? t('shop.domainSearch.available') : t(`shop.domainSearch.${check.reason ?? 'taken'}`)}
          </Badge>
        </Group>
        {price ? (
          <Text fz="sm" c="dimmed">
            {t('shop.domainSearch.price', { gross: price.register.gross.formatted, net: price.register.net.formatted })}
          </Text>
        ) : null}
      </Stack>
      {check.available && price ? (
        <Group gap="xs">
          <Button
            leftSection={<IconShoppingCartPlus size={16} aria-hidden />}
            loading={adding}
            onClick={() => {
              onAdd({ kind: 'domain_register', name: check.name, period_months: 12 });
            }}
          >
            {t('shop.domainSearch.register')}
          </Button>
          <Button
            variant="default"
            disabled={adding}
            onClick={() => {
              onAdd({ kind: 'domain_transfer', name: check.name, period_months: 12 });
            }}
          >
            {t('shop.domainSearch.transfer', { price: price.transfer.gross.formatted })}
          </Button>
        </Group>
      ) : null}
    </div>
  );
}

type Billing = 'monthly' | 'yearly';

function HostingPlans({ catalogue, onAdd, adding }: { catalogue: Catalogue } & AddProps) {
  const { t } = useTranslation();
  const [billing, setBilling] = useState<Billing>('yearly');
  return (
    <Section
      id="hosting-plans"
      title={t('shop.plans.title')}
      description={t('shop.plans.description', { rate: catalogue.vat_rate })}
      aside={
        <SegmentedControl
          aria-label={t('shop.plans.billing')}
          value={billing}
          onChange={(value) => {
            setBilling(value === 'monthly' ? 'monthly' : 'yearly');
          }}
          data={[
            { value: 'monthly', label: t('shop.plans.monthly') },
            { value: 'yearly', label: t('shop.plans.yearly') },
          ]}
        />
      }
    >
      {catalogue.plans.length === 0 ? (
        <Text c="dimmed" fz="sm">
          {t('shop.plans.none')}
        </Text>
      ) : (
        <div className={shopClasses.plans}>
          {catalogue.plans.map((plan) => (
            <PlanCard key={plan.id} plan={plan} billing={billing} onAdd={onAdd} adding={adding} />
          ))}
        </div>
      )}
    </Section>
  );
}

function PlanCard({ plan, billing, onAdd, adding }: { plan: HostingPlan; billing: Billing } & AddProps) {
  const { t } = useTranslation();
  const price = plan[billing];
  const headingId = `plan-${plan.id}`;
  return (
    <article className={shopClasses.plan} aria-labelledby={headingId}>
      <Text component="h3" fw={650} fz="lg" id={headingId}>
        {plan.title}
      </Text>
      <Text fz="sm" c="dimmed" className={shopClasses.grow}>
        {plan.description}
      </Text>
      <PlanLimits plan={plan} />
      <div>
        <span className={shopClasses.planPrice}>{price.gross.formatted}</span>{' '}
        <Text component="span" fz="sm" c="dimmed">
          {billing === 'monthly' ? t('shop.plans.perMonth') : t('shop.plans.perYear')}
        </Text>
        <Text fz="xs" c="dimmed">
          {t('shop.plans.net', { net: price.net.formatted, vat: price.vat.formatted })}
        </Text>
      </div>
      <Button
        leftSection={<IconShoppingCartPlus size={16} aria-hidden />}
        loading={adding}
        onClick={() => {
          onAdd({ kind: 'hosting', plan_id: plan.id, period_months: billing === 'monthly' ? 1 : 12 });
        }}
      >
        {t('shop.addToCart')}
      </Button>
    </article>
  );
}

function TldPrices({ catalogue }: { catalogue: Catalogue }) {
  const { t } = useTranslation();
  if (catalogue.tlds.length === 0) return null;
  return (
    <Section id="tld-prices" title={t('shop.tlds.title')} description={t('shop.tlds.description')}>
      <table className={accountClasses.table}>
        <thead>
          <tr>
            <th scope="col">{t('shop.tlds.tld')}</th>
            <th scope="col" className={shopClasses.numeric}>
              {t('shop.tlds.register')}
            </th>
            <th scope="col" className={shopClasses.numeric}>
              {t('shop.tlds.renew')}
            </th>
            <th scope="col" className={shopClasses.numeric}>
              {t('shop.tlds.transfer')}
            </th>
          </tr>
        </thead>
        <tbody>
          {catalogue.tlds.map((tld) => (
            <tr key={tld.id}>
              <td>
                <Text fw={600}>.{tld.tld}</Text>
              </td>
              <td data-label={t('shop.tlds.register')} className={shopClasses.numeric}>
                {tld.register.gross.formatted}
              </td>
              <td data-label={t('shop.tlds.renew')} className={shopClasses.numeric}>
                {tld.renew.gross.formatted}
              </td>
              <td data-label={t('shop.tlds.transfer')} className={shopClasses.numeric}>
                {tld.transfer.gross.formatted}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}
