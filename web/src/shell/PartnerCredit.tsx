import { useState } from 'react';
import { Link } from 'react-router';
import { Tooltip, UnstyledButton } from '@mantine/core';
import { IconPlus, IconWallet } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { User } from '@berth/contracts';
import { AddCreditDialog } from './AddCreditDialog.tsx';
import { useMay } from './useSignedInUser.ts';
import classes from './Header.module.css';

/** A customer's own prepaid credit is "credit"; only resellers and operators hold partner credit. */
export function creditText<K extends 'tooltip' | 'open' | 'add' | 'addTitle' | 'addIntro'>(
  user: Pick<User, 'role'>,
  key: K,
): `credit.customer.${K}` | `credit.${K}` {
  return user.role === 'customer' ? `credit.customer.${key}` : `credit.${key}`;
}

/** The currency of a formatted amount ("€0.00" → "€"), for the add-credit field. */
function currencyOf(formatted: string): string {
  return formatted.replace(/[\d\s.,\u00a0\u202f-]/g, '') || 'EUR';
}

interface PartnerCreditProps {
  user: User;
}

/** The header's credit balance: a link to the credit page, or "add credit" while it is zero. */
export function PartnerCredit({ user }: PartnerCreditProps) {
  const { t } = useTranslation();
  const [adding, setAdding] = useState(false);
  const may = useMay();
  // docs/product.md §6: super admins and tenants with host_purchases (the policy's credit.header).
  if (!may('credit.header')) return null;
  const amount = user.commission.value_formatted;

  if (user.commission.value !== 0) {
    return (
      <Tooltip label={t(creditText(user, 'tooltip'))} openDelay={400}>
        <Link
          to="/system/partner/credit"
          className={classes.credit}
          aria-label={t(creditText(user, 'open'), { amount })}
          data-testid="partner-credit"
        >
          <IconWallet size={18} stroke={1.7} aria-hidden />
          <span className={classes.creditAmount}>{amount}</span>
        </Link>
      </Tooltip>
    );
  }

  return (
    <>
      <Tooltip label={t(creditText(user, 'tooltip'))} openDelay={400}>
        <UnstyledButton
          className={classes.credit}
          aria-label={t(creditText(user, 'add'), { amount })}
          aria-haspopup="dialog"
          data-testid="partner-credit"
          onClick={() => {
            setAdding(true);
          }}
        >
          <IconWallet size={18} stroke={1.7} aria-hidden />
          <span className={classes.creditAmount}>{amount}</span>
          <IconPlus size={14} stroke={2.2} aria-hidden className={classes.creditPlus} />
        </UnstyledButton>
      </Tooltip>
      <AddCreditDialog
        opened={adding}
        onClose={() => {
          setAdding(false);
        }}
        currency={currencyOf(amount)}
      />
    </>
  );
}
