import { ActionIcon, CopyButton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatIban, type PaymentInstructionsView } from '@berth/contracts';
import { formatMoney } from './money.ts';
import classes from './BankTransfer.module.css';

type BankTransfer = Extract<PaymentInstructionsView, { kind: 'bank_transfer' }>;

/**
 * The server's QR code as an image source. An <img> never runs what an SVG carries (scripts,
 * external loads), unlike inlining the markup, and the CSP allows data: images.
 */
export function svgDataUri(svg: string): string {
  const bytes = new TextEncoder().encode(svg);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `data:image/svg+xml;base64,${btoa(binary)}`;
}

function Copy({ value, label }: { value: string; label: string }) {
  const { t } = useTranslation();
  return (
    <CopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? t('payments.copied') : label} withArrow>
          <ActionIcon variant="subtle" color={copied ? 'green' : 'gray'} size="sm" onClick={copy} aria-label={label}>
            {copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

/** Where and how to transfer the money: account, amount, the reference to quote, and a QR code. */
export function BankTransferInstructions({ instructions }: { instructions: BankTransfer }) {
  const { t } = useTranslation();
  const amount = formatMoney(instructions.amount, instructions.currency);
  return (
    <div className={classes.box} data-testid="bank-transfer">
      <div className={classes.qr}>
        <img src={svgDataUri(instructions.qr_svg)} alt={t('payments.qrAlt')} width={184} height={184} className={classes.qrImage} />
      </div>
      <dl className={classes.details}>
        <dt>{t('payments.amount')}</dt>
        <dd className={classes.amount} data-testid="transfer-amount">
          {amount}
        </dd>
        <dt>{t('payments.reference')}</dt>
        <dd>
          <span className={classes.mono} data-testid="transfer-reference">
            {instructions.reference}
          </span>
          <Copy value={instructions.reference} label={t('payments.copyReference')} />
        </dd>
        <dt>{t('payments.accountName')}</dt>
        <dd>{instructions.account_name}</dd>
        <dt>{t('payments.iban')}</dt>
        <dd>
          <span className={classes.mono}>{formatIban(instructions.iban)}</span>
          <Copy value={instructions.iban} label={t('payments.copyIban')} />
        </dd>
        {instructions.bic ? (
          <>
            <dt>{t('payments.bic')}</dt>
            <dd className={classes.mono}>{instructions.bic}</dd>
          </>
        ) : null}
      </dl>
    </div>
  );
}

/** Bank transfer instructions, or a link to the payment gateway's page. */
export function PaymentInstructions({ instructions }: { instructions: PaymentInstructionsView }) {
  const { t } = useTranslation();
  if (instructions.kind === 'bank_transfer') return <BankTransferInstructions instructions={instructions} />;
  return (
    <a href={instructions.url} rel="noopener noreferrer">
      {t('payments.continueToGateway')}
    </a>
  );
}
