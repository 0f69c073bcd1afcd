/* Scorekeeper on a phone, one module per concern (static/app/): the service worker
   (installable, offline), the "offline — as of HH:MM" marker, hands kept on the phone
   while the network is down, the screen wake lock and times in the phone's own clock.
   They follow the page through three events: live.js sends "scorekeeper:live" when it
   swapped parts of the page for fresh ones, "scorekeeper:current" when the server
   answered, "scorekeeper:unreachable" when none did.
   Progressive enhancement only: without these modules every page works as before. */
import { startNetworkStatus } from "./app/network.js";
import { startQueue } from "./app/offline.js";
import { startLocalTimes } from "./app/times.js";
import { startWakeLock } from "./app/wakelock.js";
import { registerWorker } from "./app/worker.js";

registerWorker();
startWakeLock();
startNetworkStatus();
startLocalTimes();
startQueue();
