import { PageTitle } from '../components/ui';

// Placeholder: being built.
export function LinkPage() {
  return <PageTitle title="Link" />;
}
