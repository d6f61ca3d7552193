"""The benchmark's request counts are the real cost of each operation (its latencies are not tested)."""

from __future__ import annotations

import json

from bench import run


def test_bench_reports_the_dynamodb_requests_of_each_operation(api):
    results = {m.name: m for m in run.measure(api, run.seed(api, orgs=2), iterations=2, warmup=1)}
    assert results[run.BASELINE].requests == {"GetItem": 1}
    # the authorizer's GetItem for the token, then one BatchGetItem for organization + membership
    assert results["GET /orgs/{organizationId}"].requests == {"GetItem": 1, "BatchGetItem": 1}
    assert results["GET /orgs/{organizationId}"].requests_ratio == 2.0
    # token, one GSI1 page of memberships, one BatchGetItem for the organizations (not one per org)
    assert results["GET /orgs"].requests == {"GetItem": 1, "Query": 1, "BatchGetItem": 1}
    assert results["GET /user"].requests == {"GetItem": 2}
    # token, one BatchGetItem for space + membership, the revision item; the tree and the document are
    # immutable and cached by the process after the warm-up, however many pages the space has
    for name in ("GET /spaces/{spaceId}/content/page/{pageId}",
                 "GET /spaces/{spaceId}/content/path/{pagePath}",
                 "GET /spaces/{spaceId}/content/pages (5000 pages)"):
        assert results[name].requests == {"GetItem": 2, "BatchGetItem": 1}, name
    # token, one BatchGetItem for organization + membership, one Query of the site's partition (site,
    # 50 sections, 250 site spaces, settings), one BatchGetItem of the spaces they show and one Query of
    # the integrations installed on the site (its scripts; none here, so no BatchGetItem of them)
    published = "GET /orgs/{organizationId}/sites/{siteId}/published (50 sections x 5 site spaces)"
    assert results[published].requests == {"GetItem": 1, "BatchGetItem": 2, "Query": 2}
    assert all(m.median_us > 0 and m.iterations == 2 for m in results.values())
    json.dumps(run.report(list(results.values()), 2, 1))


def test_the_event_fan_out_to_1000_installations_costs_a_request_per_25_events(api, sqs_queues):
    from bench import event_fanout_bench

    found = event_fanout_bench.run(api, installations=1000, repeat=0)
    # the update of a space with no integration: the GetItem of the space it starts from, one BatchWriteItem
    # (document + tree), its PutItem, the space's UpdateItem, and one Query of the space's integrations
    update = {"GetItem": 1, "BatchWriteItem": 1, "PutItem": 1, "UpdateItem": 1, "Query": 1}
    assert found["baseline"].requests == update
    # 1,000 installations: the same Query reads all of them; 40 more BatchWriteItem (25 events each) and
    # 100 SendMessageBatch (10 messages each), besides the search index's SendMessage
    assert found["fanned"].requests == {**update, "BatchWriteItem": 41}
    assert found["fanned"].queue_requests == {"SendMessage": 1, "SendMessageBatch": 100}
    assert found["baseline"].queue_requests == {"SendMessage": 1}


def test_a_published_page_view_reads_the_structure_the_tree_and_one_document(api):
    from bench import site_pages_bench

    views = site_pages_bench.measure(api, pages=60, repeat=0, spaces=3)
    # Addressed by organization hostname and basename: one GetItem of each guard. Then one Query of the
    # site's partition (its structure, settings and keys), one BatchGetItem of the spaces it shows (their
    # current revisions), and — cold only — the revision, its tree and the page's document (GetItem
    # each); they never change, so a warm environment has them cached.
    assert views["page view, cold"].requests == {"GetItem": 5, "Query": 1, "BatchGetItem": 1}
    assert views["page view, warm"].requests == {"GetItem": 2, "Query": 1, "BatchGetItem": 1}
    assert views[site_pages_bench.BASELINE].requests == {"GetItem": 2, "BatchGetItem": 1}
    # The page's Markdown (docs/agents.md) reads exactly what its HTML reads; llms.txt the same once the
    # trees are cached; llms-full.txt adds one BatchGetItem of documents per site space (per 100 pages).
    assert views["markdown page, cold"].requests == views["page view, cold"].requests
    assert views["markdown page, warm"].requests == views["page view, warm"].requests
    assert views["llms.txt, warm"].requests == {"GetItem": 2, "Query": 1, "BatchGetItem": 1}
    assert views["llms-full.txt, warm"].requests == {"GetItem": 2, "Query": 1, "BatchGetItem": 4}
    # The site's search, over its 3 site spaces: the page's reads (the spaces' BatchGetItem gives their
    # current revisions), one BatchGetItem of the 3 index pointers, and — cold only — the revision
    # and the tree of the site space shown (its navigation); the index files are on local disk.
    assert views["site search, cold"].requests == {"GetItem": 4, "Query": 1, "BatchGetItem": 2}
    assert views["site search, warm"].requests == {"GetItem": 2, "Query": 1, "BatchGetItem": 2}
    found = api.gateway.dispatch("GET", "/sites/bench/docs/~site/search?q=buffers+flushed",
                                 {"Host": "127.0.0.1:3000"}).body.decode()
    assert "3 results for" in found  # one page of each space


def test_one_conversation_ingest_read_and_processing_cost_a_fixed_number_of_requests(api, sqs_queues):
    from bench import conversations_bench

    found = conversations_bench.run(api, conversations=12)
    assert (found["processed"], found["conversations"]) == (12, 12)
    # token; one BatchGetItem for organization + membership; one transaction (the conversation, its
    # parts, the organization's counters); its message is one SendMessageBatch (SQS)
    assert found["ingest_requests"] == {"GetItem": 1, "BatchGetItem": 1, "TransactWriteItems": 1}
    # token; organization + membership; one Query of the conversation's partition (item and parts)
    assert found["read_requests"] == {"GetItem": 1, "BatchGetItem": 1, "Query": 1}
    # a warm worker: the conversation and its parts (one Query), the clustering state (GetItem; the
    # profiles are the process's while its stamp holds), the clusters it touches (BatchGetItem), and
    # one transaction for everything the revision changes
    assert found["process_requests"] == {"Query": 1, "GetItem": 1, "BatchGetItem": 1,
                                         "TransactWriteItems": 1}
