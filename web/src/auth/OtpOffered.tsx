import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { offersOtpLogin } from '@berth/contracts';
import { useTenant } from '../api/queries.ts';

/**
 * The one-time code screens exist only where the login screen offers them; on another tenant's
 * host their address leads to the login screen instead of a form the server would refuse.
 */
export function OtpOffered({ children }: { children: ReactNode }) {
  const tenant = useTenant();
  if (!tenant.data) return null;
  return offersOtpLogin(tenant.data.id) ? children : <Navigate to="/login" replace />;
}
