"""Order notation: parse and print every order kind, in one module.

Reads what players and other programs write: full names and abbreviations in
any case (English, the 2000 rulebook's, German and Dutch aliases from the map),
``-``/``->``/``–``/``→``/``to``, ``H``/``hold``/``XXX``/``houdt stand``/``A Pru-XXX``,
``S``/``supports``, ``C``/``convoys``, ``via convoy``, coasts as ``spa/nc``, ``spa nc``,
``spa(nc)``, ``Spa-nc``, ``Spain (north coast)``, ``Spanien-Nordküste``, power prefixes
``England:``/``ENG:``, nationality in supports (``S Turkish F con - bul``), and order
lists as people paste them: a power's name alone on a line (``Germany:``, the DATC's
layout; ``GROSS-BRITANNIEN:``, the rulebooks') gives that power to the orders under it,
and a line may hold several orders (``A Par - Bur, F Bre - Mao``). Syntax needs no
position; errors are :class:`~dipsat.errors.NotationError`
naming the text, the column and what was expected, with "did you mean" for a
misspelt province or power. Which orders are *legal* is not decided here (DATC
4.E.1): an order naming an impassable province (Switzerland) is read, and the
adjudicator finds it illegal.
"""

from __future__ import annotations

from .lists import RejectedOrder, parse_order_lines, parse_orders, power_header, split_order_line
from .order import CanonicalOrders, VariantTables, format_order, format_unit_ref, parse_location, parse_order

__all__ = ["parse_order", "parse_orders", "parse_order_lines", "power_header", "split_order_line", "RejectedOrder",
           "format_order", "parse_location", "format_unit_ref", "CanonicalOrders", "VariantTables"]
