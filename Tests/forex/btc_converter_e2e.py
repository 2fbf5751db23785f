"""forex-python's BtcConverter against a running almanac: all eight of its calls.

Driven by Tests/AlmanacEndToEndTests/FullStackHistoryTests.swift, which starts almanac on 127.0.0.1
with stub upstreams and passes, in the environment:
  ALMANAC_BASE_URL   http://127.0.0.1:PORT
  EXPECTED_JSON      the values the stub's series implies (computed by the Swift test)

The library is used unmodified. Its CoinDesk URLs are string literals inside each method, so the
only way to point it elsewhere is at its network entry point: the harness replaces the module's
`requests` with a proxy whose `get` swaps the base URL https://api.coindesk.com for almanac's
and leaves path and query exactly as the library built them. Exit status 0 = every call
answered as expected; anything else prints the failure.
"""
import json
import os
import sys
from datetime import date
from decimal import Decimal

import requests
import forex_python.bitcoin as bitcoin

COINDESK = "https://api.coindesk.com"
BASE = os.environ["ALMANAC_BASE_URL"].rstrip("/")
EXPECTED = json.loads(os.environ["EXPECTED_JSON"])
SEEN = []


class AlmanacRequests:
    """`requests` as forex_python.bitcoin sees it, with the base URL swapped."""

    @staticmethod
    def get(url, *args, **kwargs):
        assert url.startswith(COINDESK + "/"), "unexpected URL " + url
        SEEN.append(url[len(COINDESK):])
        kwargs.setdefault("timeout", 15)
        return requests.get(BASE + url[len(COINDESK):], *args, **kwargs)


bitcoin.requests = AlmanacRequests


def day(text):
    return date.fromisoformat(text)


def close_enough(actual, expected):
    assert abs(actual - expected) <= abs(expected) * 1e-12, (actual, expected)


def main():
    converter = bitcoin.BtcConverter()
    latest = EXPECTED["latest_usd"]
    on = day(EXPECTED["day"])
    usd_close, eur_close = EXPECTED["close_usd"], EXPECTED["close_eur"]

    # 1. get_latest_price: currentprice/USD.json, bpi.USD.rate_float
    assert converter.get_latest_price("USD") == latest
    # 2. get_previous_price: historical/close.json?start=D&end=D&currency=USD
    assert converter.get_previous_price("USD", on) == usd_close
    # 3. get_previous_price_list: a range, every day
    listed = converter.get_previous_price_list("USD", day(EXPECTED["list_start"]), day(EXPECTED["list_end"]))
    assert listed == EXPECTED["list_usd"], (listed, EXPECTED["list_usd"])
    assert list(listed.keys()) == sorted(listed.keys())
    # 4. convert_to_btc
    close_enough(converter.convert_to_btc(1000, "USD"), 1000 / latest)
    # 5. convert_btc_to_cur
    close_enough(converter.convert_btc_to_cur(2, "USD"), 2 * latest)
    # 6. convert_to_btc_on (EUR close of that day)
    close_enough(converter.convert_to_btc_on(1000, "EUR", on), 1000 / eur_close)
    # 7. convert_btc_to_cur_on
    close_enough(converter.convert_btc_to_cur_on(2, "EUR", on), 2 * eur_close)
    # 8. get_symbol (no request)
    assert converter.get_symbol() == "\u0E3F"

    # The Decimal mode reads the same numbers.
    precise = bitcoin.BtcConverter(force_decimal=True)
    assert precise.convert_btc_to_cur_on(Decimal("2"), "EUR", on) == Decimal("2") * Decimal(eur_close)
    # A day before CoinDesk's first is CoinDesk's 404: the library raises its own error.
    try:
        converter.get_previous_price("USD", date(2009, 1, 3))
        raise AssertionError("expected RatesNotAvailableError")
    except bitcoin.RatesNotAvailableError:
        pass

    assert len(SEEN) == 9, SEEN
    print("forex-python BtcConverter: 8 calls answered by almanac (%d requests)" % len(SEEN))


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # report, then fail
        import traceback
        traceback.print_exc()
        sys.exit(1)
