"""Google's own Books client (google-api-python-client, books v1) against a running almanac.

Driven by Tests/AlmanacEndToEndTests/FullStackBookSearchTests.swift, which starts almanac on 127.0.0.1
with stub upstreams and passes, in the environment:
  ALMANAC_BASE_URL   http://127.0.0.1:PORT
  EXPECTED_JSON      what each call must answer (from the stub's catalogue)

The library is used unmodified but for its endpoint (`client_options={"api_endpoint": …}`, the
documented way to point it elsewhere), with the discovery document it ships (no network).
It sends its own `key` and `alt=json`, which almanac accepts and ignores. Exit status 0 = every
call answered as expected; anything else prints the failure.
"""
import json
import os
import sys

from googleapiclient.discovery import build
from googleapiclient.errors import HttpError

BASE = os.environ["ALMANAC_BASE_URL"].rstrip("/") + "/"
EXPECTED = json.loads(os.environ["EXPECTED_JSON"])
CALLS = []


def check(name, condition, detail):
    CALLS.append(name)
    if not condition:
        print("FAILED %s: %s" % (name, detail))
        sys.exit(1)


def expect_error(name, call, status, words):
    try:
        call.execute()
    except HttpError as error:
        check(name, error.resp.status == status and words in str(error.reason),
              "status %s reason %r" % (error.resp.status, error.reason))
        return
    check(name, False, "no error")


def main():
    books = build("books", "v1", developerKey="a-client-key", static_discovery=True,
                  client_options={"api_endpoint": BASE})
    volumes = books.volumes()

    by_isbn = volumes.list(q="isbn:" + EXPECTED["isbn13"]).execute()
    item = by_isbn["items"][0]
    check("list isbn", by_isbn["totalItems"] == 1 and item["volumeInfo"]["title"] == EXPECTED["isbn_title"], by_isbn)

    first = volumes.list(q="intitle:hobbit", maxResults=5).execute()
    check("list words", [i["id"] for i in first["items"]] == EXPECTED["page1_ids"], first)
    check("total", first["totalItems"] == EXPECTED["total"], first)

    second = volumes.list(q="intitle:hobbit", startIndex=5, maxResults=5, orderBy="relevance",
                          printType="ALL", projection="FULL").execute()
    check("list page 2", [i["id"] for i in second["items"]] == EXPECTED["page2_ids"], second)

    google_id = second["items"][1]["id"]
    one = volumes.get(volumeId=google_id).execute()
    check("get google id", one["id"] == google_id and one["volumeInfo"] == second["items"][1]["volumeInfo"], one)
    check("self link", one["selfLink"] == BASE + "books/v1/volumes/" + google_id, one["selfLink"])

    minted = volumes.get(volumeId=item["id"]).execute()
    check("get minted id", minted["id"] == item["id"] and minted["volumeInfo"]["title"] == EXPECTED["isbn_title"], minted)

    expect_error("list bad isbn", volumes.list(q="isbn:" + EXPECTED["bad_isbn"]), 400, "not a valid ISBN")
    expect_error("list bad paging", volumes.list(q="hobbit", maxResults=41), 400, "maxResults")
    expect_error("get unknown id", volumes.get(volumeId="zzzzzzzzzzzz"), 404, "zzzzzzzzzzzz")

    print("%d calls answered by almanac: %s" % (len(CALLS), ", ".join(CALLS)))


if __name__ == "__main__":
    main()
