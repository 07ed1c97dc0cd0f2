import { DOMAIN_DROPDOWN_VIRTUAL_THRESHOLD } from '@berth/contracts';
import type { DomainListboxProps } from './domainListboxProps.ts';
import { PlainDomainListbox } from './PlainDomainListbox.tsx';
import { VirtualDomainListbox } from './VirtualDomainListbox.tsx';

/** docs/product.md §9: a virtual list above 100 options, rows 37 px high. */
export function DomainListbox(props: DomainListboxProps) {
  return props.options.length > DOMAIN_DROPDOWN_VIRTUAL_THRESHOLD ? <VirtualDomainListbox {...props} /> : <PlainDomainListbox {...props} />;
}
