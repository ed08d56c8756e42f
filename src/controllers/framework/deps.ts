import type { Client, EventRecorder, InformerFactory } from "../../client/index.ts";
import type { Clock, Logger } from "../../util/index.ts";

/**
 * What a workload controller is built from: its own client and shared informers (as if it were
 * its own process), the clock, a logger and the event recorder of its component.
 */
export interface ControllerDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly events: EventRecorder;
}
