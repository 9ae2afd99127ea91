import { PageTitle } from '../components/ui';

// Placeholder: being built.
export function WebhooksPage() {
  return <PageTitle title="Webhooks" />;
}
