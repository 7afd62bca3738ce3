"""Gate-state payloads for the bundled ML intake config."""

from __future__ import annotations


def full_state(**gates: dict) -> dict:
    base = {
        "1_data_availability": {
            "raw": "Labelled tickets in the warehouse",
            "classified": "available",
        },
        "2_use_case": {"raw": "Route urgent tickets first", "classified": None},
        "3_success_metric": {"raw": "Response time down 20%", "classified": None},
        "4_data_privacy": {"raw": "Approved in March", "classified": "approved"},
        "5_stakeholder": {"raw": None, "classified": None},
    }
    base.update(gates)
    return {
        "summary": "Ticket routing",
        "gates": base,
        "status": {"pass": True, "next_gate": None, "next_query": None},
    }
