import { Component, type ErrorInfo, type ReactNode } from 'react';
import { RenderFailed } from '../components/RenderFailed.tsx';

interface Props {
  children: ReactNode;
}

interface State {
  failed: boolean;
}

/**
 * docs/product.md §4: when the page throws while rendering, the layout stays (header, menu) and
 * the content is replaced by the error. The frame remounts it per path (its `key`), so the
 * next navigation tries again.
 */
export class ShellErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn('The page failed to render', error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <RenderFailed /> : this.props.children;
  }
}
