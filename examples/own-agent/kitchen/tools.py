"""The kitchen helper's own tools: plain typed functions with docstrings."""

from __future__ import annotations

# Millilitres per unit of volume, grams per unit of mass.
VOLUME_ML = {"ml": 1.0, "l": 1000.0, "tsp": 5.0, "tbsp": 15.0, "cup": 240.0}
MASS_G = {"g": 1.0, "kg": 1000.0, "oz": 28.35, "lb": 453.6}
# Grams per cup of an ingredient, to go between volume and mass.
GRAMS_PER_CUP = {"flour": 120.0, "sugar": 200.0, "butter": 227.0, "water": 240.0, "rice": 185.0}


def _unit(name: str) -> str:
    unit = name.strip().lower().rstrip("s")
    return {"gram": "g", "kilogram": "kg", "litre": "l", "liter": "l", "ounce": "oz"}.get(
        unit, unit
    )


def convert_units(quantity: float, from_unit: str, to_unit: str, ingredient: str = "") -> str:
    """Convert a kitchen quantity between units (ml, l, tsp, tbsp, cup, g, kg, oz, lb).

    Going between volume and mass needs the ingredient (flour, sugar, butter, water, rice).
    """
    src, dst = _unit(from_unit), _unit(to_unit)
    if src in VOLUME_ML and dst in VOLUME_ML:
        value = quantity * VOLUME_ML[src] / VOLUME_ML[dst]
    elif src in MASS_G and dst in MASS_G:
        value = quantity * MASS_G[src] / MASS_G[dst]
    else:
        density = GRAMS_PER_CUP.get(ingredient.strip().lower())
        if density is None or {src, dst} - set(VOLUME_ML) - set(MASS_G):
            return f"cannot convert {from_unit} to {to_unit} for {ingredient or 'this'}"
        if src in VOLUME_ML:  # volume -> mass
            grams = quantity * VOLUME_ML[src] / VOLUME_ML["cup"] * density
            value = grams / MASS_G[dst]
        else:  # mass -> volume
            cups = quantity * MASS_G[src] / density
            value = cups * VOLUME_ML["cup"] / VOLUME_ML[dst]
    return f"{quantity:g} {from_unit} = {value:.1f} {to_unit}"


def scale_recipe(quantity: float, servings_from: int, servings_to: int) -> str:
    """Scale one ingredient quantity of a recipe from one number of servings to another."""
    if servings_from <= 0 or servings_to <= 0:
        return "servings must be positive"
    return f"{quantity * servings_to / servings_from:g}"


def oven_temperature(degrees: float, scale: str) -> str:
    """Convert an oven temperature; ``scale`` is the scale it is given in: C or F."""
    if scale.strip().upper().startswith("C"):
        return f"{degrees:g} °C = {degrees * 9 / 5 + 32:.0f} °F"
    return f"{degrees:g} °F = {(degrees - 32) * 5 / 9:.0f} °C"
