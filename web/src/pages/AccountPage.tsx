import { PageTitle } from '../components/ui';

// Placeholder: being built.
export function AccountPage() {
  return <PageTitle title="Plan & account" />;
}
