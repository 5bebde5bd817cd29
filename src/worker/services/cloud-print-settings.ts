import { badRequest } from '../http/problem.ts';
import { CLOUD_PRINT_PROTOCOLS, type CloudPrintSettings } from '../schemas/cloud-print.ts';
import { outboundUrlProblem, type OutboundPolicy } from './outbound-url.ts';

/**
 * A request's `settings.cloudPrint` against the rest of the printer: the kind must be one the
 * protocol's printers speak, and the URL one the deployment may call (outbound-url.ts). A 400
 * naming the field otherwise.
 */
export function checkCloudPrint(protocol: string, cloudPrint: CloudPrintSettings | null | undefined, policy: OutboundPolicy): void {
  if (!cloudPrint) return;
  const protocols = CLOUD_PRINT_PROTOCOLS[cloudPrint.kind];
  if (!protocols.includes(protocol)) {
    const message = `Cloud print kind ${cloudPrint.kind} needs protocol ${protocols.join(' or ')}, not ${protocol}`;
    throw badRequest(message, { 'settings.cloudPrint.kind': [message] });
  }
  const problem = outboundUrlProblem(cloudPrint.url, policy);
  if (problem) throw badRequest(problem, { 'settings.cloudPrint.url': [problem] });
}
