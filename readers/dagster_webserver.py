"""The Dagster webserver's GraphQL API: the public way to ask an instance for a backfill or a run
(which its daemon and run queue then start) and to follow them. Used by the backfill
(orchestration) and the API's cron trigger; plain HTTP, no Dagster import.

    web = Webserver(settings.dagster_url)
    web.wait_ready(["history_job_56", "snapshot_job_56"])  # code location loaded, daemon beating
    backfill_id = web.launch_backfill("history_job_56", keys, tags={...}, title="history ...")
    web.backfill(backfill_id)                              # status and per-partition run statuses
    web.runs(tags={"dagster/backfill": backfill_id})
    web.launch_run("snapshot_job_56", tags={...})         # one run, as a launch from the UI

Only documented GraphQL fields are used (the same ones the Dagster UI reads).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import httpx

from ..core.partition_keys import BACKFILL_TAG

# BulkActionStatus values: every run finished (COMPLETED_FAILED: some did not succeed); or the
# backfill itself failed or was canceled
BACKFILL_DONE = {"COMPLETED", "COMPLETED_SUCCESS", "COMPLETED_FAILED"}
BACKFILL_FAILED = {"FAILED", "FAILING", "CANCELED", "CANCELING"}
# RunStatus values
RUN_FINISHED = {"SUCCESS", "FAILURE", "CANCELED"}
RUN_IN_PROGRESS = ["QUEUED", "NOT_STARTED", "MANAGED", "STARTING", "STARTED"]
# Daemons a backfill needs: the backfill loop submits its runs, the run queue starts them.
BACKFILL_DAEMONS = ("BACKFILL", "QUEUED_RUN_COORDINATOR")

_ERROR_FIELDS = "... on Error { message } ... on PythonError { message } ... on RunConfigValidationInvalid { errors { message } }"

REPOSITORIES = """
query Repositories {
  repositoriesOrError {
    __typename
    ... on RepositoryConnection { nodes { name location { name } jobs { name } } }
    ... on PythonError { message }
  }
  workspaceOrError {
    __typename
    ... on Workspace { locationEntries { name loadStatus locationOrLoadError { __typename ... on PythonError { message } } } }
  }
}"""

DAEMONS = """
query Daemons {
  instance { daemonHealth { allDaemonStatuses { daemonType required healthy lastHeartbeatTime } } }
}"""

LAUNCH_BACKFILL = """
mutation LaunchBackfill($params: LaunchBackfillParams!) {
  launchPartitionBackfill(backfillParams: $params) {
    __typename
    ... on LaunchBackfillSuccess { backfillId }
    %s
  }
}""" % _ERROR_FIELDS

BACKFILL = """
query Backfill($id: String!) {
  partitionBackfillOrError(backfillId: $id) {
    __typename
    ... on PartitionBackfill {
      id status numPartitions title
      partitionStatusCounts { runStatus count }
      error { message }
    }
    ... on Error { message }
  }
}"""

BACKFILLS = """
query Backfills($status: BulkActionStatus) {
  partitionBackfillsOrError(status: $status, limit: 100) {
    __typename
    ... on PartitionBackfills { results { id } }
    ... on Error { message }
  }
}"""

CANCEL_BACKFILL = """
mutation Cancel($id: String!) {
  cancelPartitionBackfill(backfillId: $id) { __typename ... on Error { message } }
}"""

LAUNCH_RUN = """
mutation LaunchRun($params: ExecutionParams!) {
  launchRun(executionParams: $params) {
    __typename
    ... on LaunchRunSuccess { run { runId } }
    %s
  }
}""" % _ERROR_FIELDS

RUNS = """
query Runs($filter: RunsFilter, $limit: Int) {
  runsOrError(filter: $filter, limit: $limit) {
    __typename
    ... on Runs { results { runId status jobName creationTime tags { key value } } }
    ... on Error { message }
  }
}"""

SCHEDULES = """
query Schedules($repo: RepositorySelector!) {
  schedulesOrError(repositorySelector: $repo) {
    __typename
    ... on Schedules { results { name scheduleState { id status } } }
    ... on Error { message }
  }
}"""

STOP_SCHEDULE = """
mutation Stop($id: String!) {
  stopRunningSchedule(id: $id) { __typename ... on Error { message } }
}"""

SENSORS = """
query Sensors($repo: RepositorySelector!) {
  sensorsOrError(repositorySelector: $repo) {
    __typename
    ... on Sensors { results { name sensorState { id status } } }
    ... on Error { message }
  }
}"""

STOP_SENSOR = """
mutation StopSensor($id: String!) {
  stopSensor(id: $id) { __typename ... on Error { message } }
}"""

START_SENSOR = """
mutation StartSensor($selector: SensorSelector!) {
  startSensor(sensorSelector: $selector) { __typename ... on Error { message } }
}"""


class WebserverError(RuntimeError):
    """The webserver is unreachable, or answered an error."""


@dataclass(frozen=True)
class JobLocation:
    location: str
    repository: str

    def repository_selector(self) -> dict[str, str]:
        return {"repositoryLocationName": self.location, "repositoryName": self.repository}


def _message(result: dict[str, Any]) -> str:
    if result.get("errors"):  # RunConfigValidationInvalid
        return "; ".join(e["message"] for e in result["errors"])
    return result.get("message") or result.get("__typename", "unknown error")


class Webserver:
    def __init__(self, url: str, timeout: float = 60.0):
        self.url = url.rstrip("/")
        self._http = httpx.Client(timeout=timeout)
        self._jobs: dict[str, JobLocation] = {}

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "Webserver":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- transport ---------------------------------------------------------------------------
    def query(self, document: str, **variables: Any) -> dict[str, Any]:
        try:
            r = self._http.post(f"{self.url}/graphql", json={"query": document, "variables": variables})
        except httpx.HTTPError as exc:
            raise WebserverError(f"the Dagster webserver at {self.url} did not answer ({type(exc).__name__})") from exc
        if r.status_code >= 400 and not r.headers.get("content-type", "").startswith("application/json"):
            raise WebserverError(f"the Dagster webserver at {self.url} answered HTTP {r.status_code}: {r.text[:300]}")
        body = r.json()
        if body.get("errors"):
            raise WebserverError(f"GraphQL error from {self.url}: {body['errors'][0].get('message')}")
        return body["data"]

    def answers(self) -> bool:
        try:
            return self._http.get(f"{self.url}/server_info", timeout=5).status_code == 200
        except httpx.HTTPError:
            return False

    # -- workspace and daemon ----------------------------------------------------------------
    def job_location(self, job_name: str) -> JobLocation:
        """The code location and repository that hold `job_name` (exactly one must)."""
        if job_name not in self._jobs:
            data = self.query(REPOSITORIES)
            repos = data["repositoriesOrError"]
            if repos["__typename"] != "RepositoryConnection":
                raise WebserverError(f"the webserver could not list its repositories: {_message(repos)}")
            for repo in repos["nodes"]:
                for job in repo["jobs"]:
                    self._jobs.setdefault(job["name"], JobLocation(repo["location"]["name"], repo["name"]))
            if job_name not in self._jobs:
                errors = [
                    f"{e['name']}: {e['locationOrLoadError'].get('message', '')[:500]}"
                    for e in data["workspaceOrError"].get("locationEntries", [])
                    if (e.get("locationOrLoadError") or {}).get("__typename") == "PythonError"
                ]
                raise WebserverError(f"no code location of the webserver at {self.url} has the job {job_name}"
                                     + (f" (load errors: {'; '.join(errors)})" if errors else ""))
        return self._jobs[job_name]

    def daemon_status(self) -> dict[str, bool]:
        """daemon type -> healthy, for the daemons a backfill needs."""
        statuses = self.query(DAEMONS)["instance"]["daemonHealth"]["allDaemonStatuses"]
        healthy = {s["daemonType"]: bool(s["healthy"]) for s in statuses}
        return {t: healthy.get(t, False) for t in BACKFILL_DAEMONS}

    def wait_ready(self, jobs: list[str], timeout: float = 120.0, *, daemons: bool = True) -> None:
        """Wait until the code location holding `jobs` is loaded and (with `daemons`) the daemons a
        backfill needs send heartbeats; raise WebserverError naming what is missing."""
        deadline = time.monotonic() + timeout
        while True:
            problem = None
            try:
                for job in jobs:
                    self.job_location(job)
                down = [t for t, ok in self.daemon_status().items() if not ok] if daemons else []
                if down:
                    problem = (f"no healthy Dagster daemon on the instance behind {self.url} "
                               f"({', '.join(down)} without a heartbeat): start `dagster-daemon run`")
            except WebserverError as exc:
                problem = str(exc)
            if problem is None:
                return
            if time.monotonic() > deadline:
                raise WebserverError(problem)
            time.sleep(0.5)

    # -- backfills ---------------------------------------------------------------------------
    def launch_backfill(self, job_name: str, partition_names: list[str], *, tags: dict[str, str] | None = None,
                        title: str | None = None, description: str | None = None) -> str:
        """A backfill of `job_name` over `partition_names`, run by the daemon; its id."""
        where = self.job_location(job_name)
        params: dict[str, Any] = {
            "selector": {"partitionSetName": f"{job_name}_partition_set",
                         "repositorySelector": where.repository_selector()},
            "partitionNames": partition_names,
            "tags": [{"key": k, "value": v} for k, v in (tags or {}).items()],
        }
        if title:
            params["title"] = title
        if description:
            params["description"] = description
        result = self.query(LAUNCH_BACKFILL, params=params)["launchPartitionBackfill"]
        if result["__typename"] != "LaunchBackfillSuccess":
            raise WebserverError(f"the {job_name} backfill was refused: {result['__typename']}: {_message(result)}")
        return result["backfillId"]

    def backfill(self, backfill_id: str) -> dict[str, Any]:
        """{id, status, numPartitions, title, partitionStatusCounts: {run status: partitions}, error}."""
        result = self.query(BACKFILL, id=backfill_id)["partitionBackfillOrError"]
        if result["__typename"] != "PartitionBackfill":
            raise WebserverError(f"backfill {backfill_id}: {_message(result)}")
        result["partitionStatusCounts"] = {c["runStatus"]: c["count"] for c in result["partitionStatusCounts"]}
        return result

    def unsettled_backfills(self) -> list[str]:
        """Ids of the backfills the daemon has not marked finished yet (requested, canceling, failing)."""
        ids = []
        for status in ("REQUESTED", "CANCELING", "FAILING"):
            result = self.query(BACKFILLS, status=status)["partitionBackfillsOrError"]
            if result["__typename"] != "PartitionBackfills":
                raise WebserverError(f"backfills could not be listed: {_message(result)}")
            ids.extend(b["id"] for b in result["results"])
        return ids

    def cancel_backfill(self, backfill_id: str) -> None:
        result = self.query(CANCEL_BACKFILL, id=backfill_id)["cancelPartitionBackfill"]
        if result["__typename"] != "CancelBackfillSuccess":
            raise WebserverError(f"backfill {backfill_id} could not be canceled: {_message(result)}")

    def launch_run(self, job_name: str, tags: dict[str, str]) -> str:
        """One run of `job_name` with `tags` (partition tags included), queued like a launch from
        the UI; its run id."""
        params = {
            "selector": {**self.job_location(job_name).repository_selector(), "jobName": job_name},
            "executionMetadata": {"tags": [{"key": k, "value": v} for k, v in tags.items()]},
        }
        result = self.query(LAUNCH_RUN, params=params)["launchRun"]
        if result["__typename"] != "LaunchRunSuccess":
            raise WebserverError(f"the {job_name} run was refused: {result['__typename']}: {_message(result)}"[:500])
        return result["run"]["runId"]

    def runs(self, *, tags: dict[str, str] | None = None, job_name: str | None = None,
             statuses: list[str] | None = None, created_after: float | None = None,
             run_ids: list[str] | None = None, limit: int | None = None) -> list[dict[str, Any]]:
        """Runs matching every filter, newest first: {runId, status, jobName, creationTime, tags: {k: v}}."""
        filters: dict[str, Any] = {}
        if run_ids is not None:
            filters["runIds"] = run_ids
        if created_after is not None:
            filters["createdAfter"] = created_after
        if tags:
            filters["tags"] = [{"key": k, "value": v} for k, v in tags.items()]
        if job_name:
            filters["pipelineName"] = job_name
        if statuses:
            filters["statuses"] = statuses
        result = self.query(RUNS, filter=filters, limit=limit)["runsOrError"]
        if result["__typename"] != "Runs":
            raise WebserverError(f"runs could not be listed: {_message(result)}")
        runs = result["results"]
        for run in runs:
            run["tags"] = {t["key"]: t["value"] for t in run["tags"]}
        return runs

    def backfill_runs(self, backfill_id: str) -> list[dict[str, Any]]:
        """The runs of a backfill, oldest first."""
        return sorted(self.runs(tags={BACKFILL_TAG: backfill_id}), key=lambda r: r["creationTime"])

    # -- schedules ---------------------------------------------------------------------------
    def stop_schedules(self, job_name: str) -> list[str]:
        """Stop every running schedule of the code location holding `job_name`; their names."""
        where = self.job_location(job_name)
        result = self.query(SCHEDULES, repo=where.repository_selector())["schedulesOrError"]
        if result["__typename"] != "Schedules":
            raise WebserverError(f"schedules could not be listed: {_message(result)}")
        stopped = []
        for schedule in result["results"]:
            if schedule["scheduleState"]["status"] == "RUNNING":
                answer = self.query(STOP_SCHEDULE, id=schedule["scheduleState"]["id"])["stopRunningSchedule"]
                if answer["__typename"] != "ScheduleStateResult":
                    raise WebserverError(f"schedule {schedule['name']} could not be stopped: {_message(answer)}")
                stopped.append(schedule["name"])
        return stopped

    # -- sensors -----------------------------------------------------------------------------
    def stop_sensors(self, job_name: str, prefix: str) -> list[str]:
        """Stop the running sensors named `prefix*` of the code location holding `job_name`; their names."""
        where = self.job_location(job_name)
        result = self.query(SENSORS, repo=where.repository_selector())["sensorsOrError"]
        if result["__typename"] != "Sensors":
            raise WebserverError(f"sensors could not be listed: {_message(result)}")
        stopped = []
        for sensor in result["results"]:
            if sensor["name"].startswith(prefix) and sensor["sensorState"]["status"] == "RUNNING":
                answer = self.query(STOP_SENSOR, id=sensor["sensorState"]["id"])["stopSensor"]
                if answer["__typename"] != "StopSensorMutationResult":
                    raise WebserverError(f"sensor {sensor['name']} could not be stopped: {_message(answer)}")
                stopped.append(sensor["name"])
        return stopped

    def start_sensor(self, job_name: str, name: str) -> None:
        """Start the sensor `name` of the code location holding `job_name`."""
        selector = {**self.job_location(job_name).repository_selector(), "sensorName": name}
        answer = self.query(START_SENSOR, selector=selector)["startSensor"]
        if answer["__typename"] != "Sensor":
            raise WebserverError(f"sensor {name} could not be started: {_message(answer)}")
