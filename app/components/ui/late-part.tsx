import { Component, type ComponentType, type LazyExoticComponent, lazy, type ReactNode, Suspense } from "react";

/**
 * A part of a page whose code loads when it is first shown (`React.lazy`), that can load again
 * after a failure: `React.lazy` keeps a failed load for good, so `reload()` makes a fresh one.
 */
export interface LoadablePart<Props extends object> {
  readonly Component: LazyExoticComponent<ComponentType<Props>>;
  reload(): void;
}

export function loadablePart<Props extends object>(load: () => Promise<ComponentType<Props>>): LoadablePart<Props> {
  const make = () => lazy(async () => ({ default: await load() }));
  let current = make();
  return {
    get Component() {
      return current;
    },
    reload() {
      current = make();
    },
  };
}

/**
 * Shows a loadable part: `loading` while its code is on its way, `failed` when it could not be
 * loaded (the connection dropped, or the app was updated and the old files are gone), with a
 * `retry` that loads it again. Without this boundary, a failed load would take the whole page
 * down with it.
 */
export class LatePart<Props extends object> extends Component<
  {
    part: LoadablePart<Props>;
    loading: ReactNode;
    failed: (retry: () => void) => ReactNode;
    children: (Part: ComponentType<Props>) => ReactNode;
  },
  { failed: boolean }
> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  retry = () => {
    this.props.part.reload();
    this.setState({ failed: false });
  };

  render() {
    if (this.state.failed) return this.props.failed(this.retry);
    return <Suspense fallback={this.props.loading}>{this.props.children(this.props.part.Component)}</Suspense>;
  }
}
