import { PageTitle } from '../components/ui';

// Placeholder: being built.
export function DomainsPage() {
  return <PageTitle title="Domains" />;
}
