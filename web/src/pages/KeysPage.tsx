import { PageTitle } from '../components/ui';

// Placeholder: being built.
export function KeysPage() {
  return <PageTitle title="API keys" />;
}
