import type { CSSProperties, HTMLAttributes, Ref } from 'react';
import type { AltchaWidgetElement } from 'altcha/external';
import type { Configuration } from 'altcha/types';

/**
 * `<altcha-widget>` in JSX. Attributes are strings (React 19 sets them as properties once the
 * element is defined); richer options go through the `configuration` JSON attribute or
 * `element.configure()`. Events (`statechange`, `verified`, ...) are attached with
 * addEventListener on the ref.
 */
interface AltchaWidgetProps extends HTMLAttributes<AltchaWidgetElement> {
  ref?: Ref<AltchaWidgetElement>;
  auto?: Configuration['auto'];
  challenge?: string;
  configuration?: string;
  display?: Configuration['display'];
  language?: string;
  name?: string;
  theme?: string;
  type?: Configuration['type'];
  workers?: number;
  style?: CSSProperties;
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'altcha-widget': AltchaWidgetProps;
    }
  }
}
