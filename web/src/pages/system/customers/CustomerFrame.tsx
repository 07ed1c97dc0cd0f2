import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Button, Skeleton, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { Customer } from '@berth/contracts';
import { useCustomer } from '../../../api/customers.ts';
import { LoadFailed } from '../../../components/LoadFailed.tsx';
import { usePageTitle } from '../../../components/usePageTitle.ts';
import { NotFoundPage } from '../../NotFoundPage.tsx';
import classes from '../../Pages.module.css';
import customerClasses from './Customers.module.css';

/** The `:id` of a customer page and whether it can be one (a positive 32-bit integer). */
export function useCustomerIdParam(): { id: number; valid: boolean } {
  const id = Number(useParams().id);
  return { id, valid: Number.isInteger(id) && id > 0 && id <= 2_147_483_647 };
}

/** How a customer is named on their pages: the display name, else the e-mail address. */
export const customerName = (customer: Customer): string => customer.contact.display_name.trim() || customer.email;

interface CustomerFrameProps {
  /** Where the link above the page goes back to. */
  back: { to: string; label: string };
  /** The window title while the customer loads, and with the customer's name once loaded. */
  title: (name: string | undefined) => string;
  /** Another answer that can say "not found" (e.g. the customer's ledger). */
  notFound?: boolean;
  children: (customer: Customer, name: string) => ReactNode;
}

/**
 * A page of one customer (/system/customers/{id}/...): a way back, skeletons while it loads, the
 * failure with a retry, and "not found" for an id that is not a customer the admin may see.
 */
export function CustomerFrame({ back, title, notFound = false, children }: CustomerFrameProps) {
  const { id, valid } = useCustomerIdParam();
  const customer = useCustomer(id, valid);
  const name = customer.data ? customerName(customer.data) : undefined;
  usePageTitle(title(name));

  if (!valid || notFound || customer.error?.status === 404) return <NotFoundPage />;
  return (
    <div className={classes.page}>
      <Button
        component={Link}
        to={back.to}
        variant="subtle"
        size="compact-sm"
        leftSection={<IconArrowLeft size={14} aria-hidden />}
        className={customerClasses.back}
      >
        {back.label}
      </Button>
      {customer.isPending ? (
        <Stack gap="lg" aria-busy="true">
          <Skeleton height={56} radius="md" width="60%" />
          <Skeleton height={160} radius="lg" />
          <Skeleton height={260} radius="lg" />
        </Stack>
      ) : customer.isError ? (
        <LoadFailed error={customer.error} onRetry={() => void customer.refetch()} />
      ) : (
        children(customer.data, name ?? customer.data.email)
      )}
    </div>
  );
}
