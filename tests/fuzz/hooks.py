"""Schemathesis hooks of the API fuzz (tests/fuzz/schemathesis.toml, docs/decisions/0117).

The fuzz company is seeded before the run (tests/system/test/support/fuzz-seed.ts); its keys and record ids
are in the JSON file named by FUZZ_SEED_FILE, the gateway's URL in FUZZ_BASE_URL.

- Outside the stateful phase (which takes its ids from the OpenAPI links), a path id generated as a
  well-formed UUID is replaced by the seeded record's id in three cases of four, so operations on existing
  records run on real data and still meet unknown ids; ids generated malformed (negative cases) stay.
- A record an operation used up (an entry submitted, decided, cancelled or deleted; an expense or an
  attachment deleted) is replaced by a new one at once, so the next case finds one in the same state.
- A webhook URL generated valid points at the seeded receiver (a URL must resolve, 0117), so subscriptions
  get created and the stateful phase reaches their deliveries.
- In every phase, the keys the fuzz calls with and their employees are spared: a revoke or an update aimed
  at them (with an id schemathesis read from a list) goes to the spare key or the traveller.
"""

import base64
import datetime
import json
import os
import re
import urllib.error
import urllib.request
import uuid
import zlib

import schemathesis
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.meta import TestPhase

with open(os.environ["FUZZ_SEED_FILE"], encoding="utf-8") as seed_file:
    SEED = json.load(seed_file)
IDS = SEED["ids"]
BASE_URL = os.environ["FUZZ_BASE_URL"].rstrip("/")

UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
# The same trip and expense as the seed (fuzz-seed.ts TRIP, EXPENSE).
TRIP = {"departureDate": "2026-11-16", "returnDate": "2026-11-18", "currencyCode": "CZK"}
EXPENSE = {"kind": "Other", "date": "2026-11-17", "amount": 1250.5, "currencyCode": "CZK", "description": "Taxi"}
PNG = base64.b64decode(SEED["png"])


def operation_id(case) -> str:
    return case.operation.definition.raw.get("operationId", "")


def seeded_id(case, name: str) -> str | None:
    specific = IDS.get(f"{operation_id(case)}.{name}")
    if specific or name != "id":
        return specific or IDS.get(name)
    return IDS.get(case.operation.path.removeprefix("/api/v1/").split("/", 1)[0])


def call(method: str, path: str, body=None, content_type="application/json"):
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{BASE_URL}{path}", data=data, method=method)
    request.add_header("Authorization", f"Bearer {SEED['ownerKey']}")
    if data is not None:
        request.add_header("Content-Type", content_type)
    with urllib.request.urlopen(request, timeout=20) as response:
        return json.loads(response.read() or b"null")


def new_draft(**extra) -> str:
    return call("POST", "/api/v1/travel-entries", {**TRIP, **extra})["id"]


def new_submitted() -> str:
    # The fuzz may have changed the workflow: the entry must wait for the seeded approver.
    call("PUT", "/api/v1/approval-workflow", SEED["workflow"])
    entry = new_draft(expenses=[EXPENSE])
    call("POST", f"/api/v1/travel-entries/{entry}/submit", {})
    return entry


def new_attachment() -> str:
    boundary = uuid.uuid4().hex
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="r.png"\r\n'
        "Content-Type: image/png\r\n\r\n"
    ).encode() + PNG + f"\r\n--{boundary}--\r\n".encode()
    uploaded = call(
        "POST",
        f"/api/v1/travel-entries/{IDS['travel-entries']}/attachments",
        body,
        f"multipart/form-data; boundary={boundary}",
    )
    return uploaded["items"][0]["id"]


# What replaces a record once an operation has used it up: (seed key, maker).
REFILLS = {
    "submitTravelEntry": ("submitTravelEntry.id", new_draft),
    "cancelTravelEntry": ("cancelTravelEntry.id", new_draft),
    "deleteTravelEntry": ("deleteTravelEntry.id", new_draft),
    "approveTravelEntry": ("approveTravelEntry.id", new_submitted),
    "rejectTravelEntry": ("rejectTravelEntry.id", new_submitted),
    "requestTravelEntryChanges": ("requestTravelEntryChanges.id", new_submitted),
    "deleteExpense": (
        "deleteExpense.expenseId",
        lambda: call("POST", f"/api/v1/travel-entries/{IDS['travel-entries']}/expenses", EXPENSE)["id"],
    ),
    "deleteAttachment": ("deleteAttachment.attachmentId", new_attachment),
}


# Operations that would take away the fuzz's own keys or their employees' permissions and status; ids
# schemathesis read from lists (the owner's key in GET /api-keys) are sent to the spare records instead.
PROTECTED = {
    "revokeApiKey": (set(SEED["protectedIds"]["keys"]), "api-keys"),
    "updateEmployee": (set(SEED["protectedIds"]["employees"]), "employees"),
}


def spare_protected(case) -> None:
    protected = PROTECTED.get(operation_id(case))
    if protected and case.path_parameters.get("id") in protected[0]:
        case.path_parameters["id"] = IDS[protected[1]]
    spare_seed_month(case)


# The seed's month (TRIP, EXPENSE): closed, every later edit of the seeded records and every refill would be
# 409 PERIOD_CLOSED (docs/decisions/0207). A close aimed at it closes a month nothing of the seed is in.
SEED_MONTHS = {TRIP["departureDate"][:7], TRIP["returnDate"][:7], EXPENSE["date"][:7]}


def payout_months() -> set:
    """Today's month in every market's calendar (a day either side of UTC) and the next one.

    A payout batch is dated today: in a closed month its create and its undo are 409 PERIOD_CLOSED
    (docs/decisions/0211), so a close aimed at these would turn the fuzz's payouts into refusals.
    """
    now = datetime.datetime.now(datetime.timezone.utc)
    days = [now + datetime.timedelta(days=d) for d in (-1, 0, 1)]
    months = {d.strftime("%Y-%m") for d in days}
    nxt = (now.replace(day=1) + datetime.timedelta(days=32)).strftime("%Y-%m")
    return months | {nxt}


def spare_seed_month(case) -> None:
    if operation_id(case) == "closeAccountingPeriod" and case.path_parameters.get("period") in (
        SEED_MONTHS | payout_months()
    ):
        case.path_parameters["period"] = "2001-01"


IDEMPOTENCY_KEY = re.compile(r"^[!-~]{1,255}$")


def unique_idempotency_key(case) -> None:
    """A valid generated Idempotency-Key, made unique per case (its characters kept, a UUID after them).

    Hypothesis reuses small values ("0") across cases: with one API key, the same key on another request is
    422 and on the same one a replay of an earlier answer (docs/decisions/0195), both right, neither what
    the case tests. A malformed key (negative cases) stays, and must be 400, never a 500.
    """
    headers = case.headers or {}
    for name, value in headers.items():
        if name.lower() == "idempotency-key" and isinstance(value, str) and IDEMPOTENCY_KEY.match(value):
            headers[name] = f"{value[:218]}-{uuid.uuid4()}"


@schemathesis.hook
def before_call(context, case, kwargs):
    if case.meta is None:
        return
    spare_protected(case)
    if operation_id(case) == "createWebhook" and isinstance(case.body, dict):
        if not case.meta.is_negative_at(ParameterLocation.BODY) and isinstance(case.body.get("url"), str):
            case.body["url"] = SEED["receiverUrl"]
    # A delegate generated valid is the seeded deputy in three cases of four (else: not an employee, a 400 rule).
    if operation_id(case) == "createDelegation" and isinstance(case.body, dict):
        delegate = case.body.get("delegateId")
        if isinstance(delegate, str) and UUID.match(delegate) and zlib.crc32(case.id.encode()) % 4:
            case.body["delegateId"] = IDS["delegateId"]
    unique_idempotency_key(case)
    if case.meta.phase.name == TestPhase.STATEFUL or not case.path_parameters:
        return
    # One case in four keeps its generated ids (a stable choice per case, so a failure replays the same).
    if zlib.crc32(case.id.encode()) % 4 == 0:
        return
    for name, value in case.path_parameters.items():
        replacement = seeded_id(case, name)
        if replacement and isinstance(value, str) and UUID.match(value):
            case.path_parameters[name] = replacement


@schemathesis.hook("after_call")
def replace_used_records(context, case, response):
    refill = REFILLS.get(operation_id(case))
    if refill is None or not 200 <= response.status_code < 300:
        return
    key, make = refill
    if IDS.get(key) in case.path_parameters.values():
        try:
            IDS[key] = make()
        except urllib.error.HTTPError as error:
            # The fuzz changed something the replacement needs: later cases meet the used record (409).
            print(f"[fuzz hooks] could not replace {key}: {error.code} {error.read()[:300]!r}")


def new_edit_draft() -> None:
    """A new entry to edit, with an expense and an attachment of each use (the last one got locked)."""
    IDS["travel-entries"] = new_draft()
    expenses = f"/api/v1/travel-entries/{IDS['travel-entries']}/expenses"
    IDS["expenseId"] = call("POST", expenses, EXPENSE)["id"]
    IDS["deleteExpense.expenseId"] = call("POST", expenses, EXPENSE)["id"]
    IDS["attachmentId"] = new_attachment()
    IDS["deleteAttachment.attachmentId"] = new_attachment()


def locked_by(case, response) -> bool:
    """The call left the draft to edit locked, or met it locked (whatever locked it: a PUT that made it a trip
    request the company approves at once, a stateful step that submitted it): locked, it would answer 409 to
    every edit after it."""
    if case.path_parameters.get("id") != IDS["travel-entries"]:
        return False
    if response.status_code == 409:
        return "is locked" in response.text
    return operation_id(case) == "updateTravelEntry" and response.status_code == 200 and response.json().get("isLocked")


@schemathesis.hook("after_call")
def replace_locked_draft(context, case, response):
    if locked_by(case, response):
        try:
            new_edit_draft()
        except urllib.error.HTTPError as error:
            print(f"[fuzz hooks] could not replace the locked draft: {error.code} {error.read()[:300]!r}")


# Business rules no schema can state, per operation: a schema-valid request these operations refuse with
# 400 is accepted by positive_data_acceptance (schemathesis.toml) only when every error is one of these
# (docs/decisions/0117). Any other 400 to schema-valid data fails this check.
REFERENCE = r"of this company|does not exist|no such \w+ in the company"
# A decimal has at most the digits its field or currency allows, and at most 15 significant digits (a JSON
# number beyond that is not exactly what the client wrote; 0107). JSON Schema's `multipleOf` cannot say
# this for binary numbers (0.1 * 3 is not a multiple of 0.1), so the contract says it in words.
PRECISION = r"must have at most \d+ decimal(s| places)|must be a whole number|at most 15 significant digits"
# Amounts have the minor digits of their currency (another field); an entry keeps its employee.
# An amount's bound in the base currency depends on the day's rate (0107): "must be <= … once converted".
MONEY_RULES = r"decimals in [A-Z]{3}|not enabled|published no rate|once converted into [A-Z]{3}|" + PRECISION
# A per-diem row's times and allocations against each other and the calendar: a trip of at most a year,
# a night inside the row and long enough, meal days that are days of the row, one entry per row, a market's
# own lump sums, an override with its amount and reason, and a day that exists in its month (a pattern
# gives the form of a date, not how many days a month has).
PER_DIEM_RULES = (
    r"a trip of at most \d+ days|must fall within the row|a night shorter than|hours of the night inside the row"
    r"|must be a day of the row|a second entry for the same row|no row has|exists only for [A-Z]{2} tenants"
    r"|is required with overrideReason|must say why the statutory amount is overridden"
    r"|must be a calendar date|must be an ISO 8601 date-time"
)
# A Mileage row is in the company's base currency, with the fuel figures its market's rules need, at a
# statutory rate in force on its date (regulations without a verified figure for a date have none).
MILEAGE_RULES = r"Mileage row is in the base currency|on a Mileage row in [A-Z]{2}|no statutory mileage rate"
ENTRY_RULES = (
    MONEY_RULES
    + "|"
    + MILEAGE_RULES
    + r"|must sum to|must be after|must be on or after|must add up to|cannot be changed"
    + r"|either a percentage or an amount|all be percentages or all be amounts"
    # A cost center (a meal day) is listed once: uniqueness by one property, which `uniqueItems` cannot say.
    + r"|is listed twice"
    + "|"
    + PER_DIEM_RULES
)
# What an IBAN pattern cannot state: the MOD 97 check digits, the registry's length and structure per
# country, national check digits (the contract's descriptions say so; 0119).
IBAN_RULES = r"wrong check digits|wrong [A-Z]{2} account or bank check digits|must have \d+ characters for [A-Z]{2}|account number structure"
# A field required only with another field's value (a conditional requirement: the spec's error keys, such
# as `errors.Type`, are the code's, so the schema leaves these open): (field, message) pairs.
# An entry's own expense rows (`expenses[0].amount`) follow the same rules as the expenses operations.
MILEAGE_AND_AMOUNT = [
    (r"(expenses\[\d+\]\.)?distanceKm", r"^is required on a Mileage row$"),
    (r"(expenses\[\d+\]\.)?amount", r"^is required$"),
]
VEHICLE_RULES = [
    ("Type", r"^(is required: Company or Personal$|must be Company or Personal)"),
    ("ownerEmployeeId", r"Personal vehicle|only a Personal"),
    # The technical certificate's consumption: at most 2 decimals (0133).
    ("fuelConsumption", PRECISION),
]
# A Custom deadline needs its title; a reminder goes to at most 20 distinct employees (the contract says so
# in words: repeats of one id count once, which `maxItems` cannot say).
CUSTOM_DEADLINE = [
    ("title", r"^is required for a Custom deadline$"),
    ("remindEmployeeIds", r"^at most 20 distinct employees$"),
]
ITINERARY = [r"last stop must be after the first|must not be before an earlier stop|at least two stops|" + PER_DIEM_RULES]
# An upload needs a file: a part named `files` that carries a filename (RFC 7578 4.2); a bare field of that
# name (what a generator sends for `format: binary`) is not a file.
UPLOAD_RULES = [("File", r"^at least one file")]
# A trip that goes abroad (its destination or a per-diem row outside the market) is not Domestic: the
# contract says so in words (docs/decisions/0190); a schema cannot compare the type with the countries.
TRAVEL_TYPE = ("travelType", r"^must be Foreign \(or omitted\): the trip goes abroad")

# Delta sync (docs/decisions/0156, 0159): a cursor is whatever the previous page's `nextCursor` was, for the same
# query, which only decoding it tells; with a cursor or updatedSince the page is 1.
CURSOR_RULES = [("cursor", r"^is not a cursor of this query"), ("page", r"^must be 1 \(or left out\) with")]

# Issue 39 (docs/decisions/0203, 0204): an expense's receipts are attachments of its entry; the expense
# policy's versions have one date each, its rules a unique name and scope and at least one limit, and the
# departments and cost centers it names are the company's; a blocking finding refuses submit, keyed by the
# expense; a declaration's reason is text.
RECEIPT_IDS = ("receiptAttachmentIds", r"^must be attachments of this entry")
EXPENSE_POLICY_RULES = [
    REFERENCE,
    PRECISION,
    r"already starts on|has the same name|already sets the \w+ rule|must set at least one of|is required"
    r"|must be a calendar date|must not contain control characters|must not be negative",
]

BUSINESS_RULES = {
    "listEmployees": CURSOR_RULES,
    "listDepartments": CURSOR_RULES,
    "listCostCenters": CURSOR_RULES,
    "listTravelEntries": CURSOR_RULES,
    "listVehicles": CURSOR_RULES,
    "listVehicleCosts": CURSOR_RULES,
    "listVehicleDocuments": CURSOR_RULES,
    "listVehicleDeadlines": CURSOR_RULES,
    "listWebhooks": CURSOR_RULES,
    # A time range whose end is not after its start (docs/decisions/0148), which the schema cannot compare.
    "listDeliveries": [*CURSOR_RULES, ("createdBefore", r"^must be later than createdFrom")],
    "listReadyForPayout": CURSOR_RULES,
    "listPayoutBatches": CURSOR_RULES,
    "createApiKey": [REFERENCE, r"must be an active, unarchived employee"],
    # An approver's delegation (docs/decisions/0205): a delegate other than the approver, of the company and
    # active; a period not before today, at most 92 days, not overlapping another (comparisons with stored data).
    "createDelegation": [
        REFERENCE,
        ("delegateId", r"^must be someone other than the approver$|^must be an active, unarchived employee$"),
        ("lastDay", r"^must not be before firstDay$|^must be at most 92 days|^must not be before today"),
        ("firstDay", r"^overlaps delegation"),
    ],
    "createDepartment": [REFERENCE],
    "updateDepartment": [REFERENCE, r"cycle|own parent|descendant"],
    "createEmployee": [REFERENCE, IBAN_RULES],
    "updateEmployee": [REFERENCE, IBAN_RULES],
    "putApprovalWorkflow": [REFERENCE],
    "createVehicle": [REFERENCE, *VEHICLE_RULES],
    "updateVehicle": [REFERENCE, *VEHICLE_RULES],
    "createVehicleDeadline": [REFERENCE, *CUSTOM_DEADLINE],
    "updateVehicleDeadline": [REFERENCE, *CUSTOM_DEADLINE],
    "createVehicleCost": [MONEY_RULES],
    "updateVehicleCost": [MONEY_RULES],
    "uploadAttachments": UPLOAD_RULES,
    "uploadVehicleDocuments": UPLOAD_RULES,
    "downloadPayoutPaymentFile": [IBAN_RULES],
    # An entry is paid once: a repeat is keyed by its index (the spec's `entryIds[i]`), which `uniqueItems` cannot do.
    "createPayoutBatch": [REFERENCE, r"approved|paid out|ready|nothing due|currency|repeats entryIds\[\d+\]"],
    # Allocations add up to the whole; a per-diem row's arrival is after its departure and its meal
    # allocation adds up to the meals provided (comparisons between fields, or sums, no schema states).
    # The multipart create's `entry` part is TravelEntryCreate as JSON text: the contract says so in words; a
    # form part's schema is a string to the validator, which cannot parse it as JSON first.
    "createTravelEntry": [
        REFERENCE,
        ENTRY_RULES,
        TRAVEL_TYPE,
        *MILEAGE_AND_AMOUNT,
        ("entry", r"^must be (JSON|object)$"),
        (r"expenses\[\d+\]\.receiptAttachmentIds", r"^must be attachments of this entry"),
    ],
    "updateTravelEntry": [REFERENCE, ENTRY_RULES, TRAVEL_TYPE, *MILEAGE_AND_AMOUNT],
    # A Mileage row is in the company's base currency, with the fuel figures its market's rules need.
    # `fromReading` must name an attachment of the entry (docs/decisions/0201).
    "createExpense": [
        REFERENCE,
        MONEY_RULES + "|" + MILEAGE_RULES,
        *MILEAGE_AND_AMOUNT,
        ("fromReading", r"^must be an attachment of this entry"),
        RECEIPT_IDS,
    ],
    "updateExpense": [REFERENCE, MONEY_RULES + "|" + MILEAGE_RULES, *MILEAGE_AND_AMOUNT, RECEIPT_IDS],
    # Meal rows must be rows of the itinerary the same request sends.
    "perDiemsFromItinerary": [REFERENCE, r"not enabled|no row has|must be the entry's employee", *ITINERARY],
    "calculatePerDiems": [REFERENCE, r"not enabled|no row has", *ITINERARY],
    # A payload filter's paths and values are checked against the data of the subscription's event types
    # (docs/decisions/0230): which fields exist and what each holds depends on the sibling `eventTypes`, and
    # the operators' grammar below the top level is stated in words, not in the schema.
    "createWebhook": [
        r"could not be resolved|private|not allowed",
        (
            r"filter.*",
            r"is not a field of .*'s data|is not of one type in the data of|as the field is"
            r"|^must be a string or a number$|^must be a string, number, boolean or null$|is not an operator"
            r"|^must hold at least one (operator|condition)|^must be boolean$|^must be a non-empty array"
            r"|^must NOT have more than|^must NOT nest|^must NOT hold more than|^must be an object"
            r'|^must be "data.<field>", "\$and" or "\$or"$',
        ),
    ],
    # Closing and reopening (docs/decisions/0207): the schema states the month and the reason whole; their
    # only schema-valid refusal is the period's state, 409 (schemathesis.toml), never a 400.
    "closeAccountingPeriod": [],
    "reopenAccountingPeriod": [],
    "recoverWebhookEvents": [r"days ago|in the future"],
    # Which currency a provider quotes against depends on the provider (the market, the date).
    "listExchangeRates": [r"published no rate|has no rate"],
    # The company's market decides its bands, floors and ceilings (docs/decisions/0128); versions have one
    # date each and name a band once (uniqueness by one property, which `uniqueItems` cannot say).
    "putExpensePolicy": EXPENSE_POLICY_RULES,
    "submitTravelEntry": [(r"expenses\[\d+\]", r"^breaches the expense policy rule")],
    "declareMissingReceipt": [("reason", r"must not contain control characters|is required")],
    "putPerDiemPolicy": [
        PRECISION,
        r"below the statutory minimum|above the public-sector maximum|must be a domestic band of [A-Z]{2}"
        r"|is listed twice|another version starts on|must be a calendar date|public-sector ranges only for CZ"
        r"|exists only in CZ|the public sector pays the decree rate abroad"
        # Per-country company rates (docs/decisions/0188): only where no statutory rate is known, in the
        # reported figure's currency, at least it in CZ, SK and PL.
        r"|the statutory rate is known: |is the company's own country|below the figure reported for"
        r"|below 75 % of the figure reported for|the currency of the figure reported for",
    ],
}


def explains(rule, field: str, message: str) -> bool:
    """A rule is a message pattern for any field, or a (field pattern, message pattern) pair."""
    if isinstance(rule, tuple):
        return re.fullmatch(rule[0], field) is not None and re.search(rule[1], message) is not None
    return re.search(rule, message) is not None


@schemathesis.check
def business_rule_rejections(ctx, response, case):
    """A 400 to a schema-valid request is only ever one of the operation's business rules."""
    rules = BUSINESS_RULES.get(operation_id(case))
    if rules is None or response.status_code != 400 or case.meta is None:
        return
    if case.meta.generation.mode.is_negative or any(c.mode.is_negative for c in case.meta.components.values()):
        return
    try:
        problem = response.json() or {}
    except ValueError:
        raise AssertionError(f"A 400 without a JSON problem body: {response.text[:300]!r}") from None
    errors = problem.get("errors") or {"": [problem.get("detail", "")]}
    unexplained = {
        field: message
        for field, messages in errors.items()
        for message in messages
        if not any(explains(rule, field, message) for rule in rules)
    }
    if unexplained:
        raise AssertionError(f"Schema-valid request rejected, not by a business rule of the operation: {unexplained}")
